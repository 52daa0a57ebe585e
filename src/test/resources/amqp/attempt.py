"""Tries one AMQP 1.0 step with Qpid Proton and says whether the broker allowed it.

usage: attempt.py <url> <mechanisms> <action> <address> [body]

url is amqp://host:port, or amqp://user:password@host:port for SASL PLAIN; mechanisms are the SASL mechanisms the
client allows ("ANONYMOUS", "PLAIN"). action is one of
  connect   open a connection (address is ignored)
  send      send one message (a string body: the body given, else "attempt") to the address, and wait for the
            broker to settle it
  receive   attach a receiver to the address (a consumer; the broker refuses the link if it may not)
Prints {"ok": true} or {"ok": false, "error": "<what the client or the broker said>"} and exits 0 either way.
"""
import json
import sys

from proton import Message
from proton.utils import BlockingConnection


def main():
    url, mechanisms, action, address = sys.argv[1:5]
    body = sys.argv[5] if len(sys.argv) > 5 else "attempt"
    connection = None
    try:
        connection = BlockingConnection(url, timeout=15, allowed_mechs=mechanisms, allow_insecure_mechs=True)
        if action == "send":
            connection.create_sender(address).send(Message(body=body, durable=True))
        elif action == "receive":
            connection.create_receiver(address)
        elif action != "connect":
            raise ValueError("unknown action " + action)
        print(json.dumps({"ok": True}))
    except Exception as refused:  # proton raises ConnectionException, LinkDetached, SendException, Timeout
        print(json.dumps({"ok": False, "error": "%s: %s" % (type(refused).__name__, refused)}))
    finally:
        if connection is not None:
            try:
                connection.close()
            except Exception:
                pass


if __name__ == "__main__":
    main()
