"""Receives one AMQP 1.0 message with Qpid Proton, as a Python consumer would, and prints it as JSON.

usage: receive.py <url> <queue> <selector> <timeout seconds> [browse]

url is amqp://user:password@host:port (SASL PLAIN). Takes the first message on the queue that matches the JMS selector
(for example "testCase = 'x'" or "ClaimGuardRequestId = 'r-1'") and accepts it, or with "browse" only reads it (AMQP
distribution mode copy, a browser on Artemis: the message stays); prints its application properties, the type of its
body and, for a string body, the body; exits 1 when none comes within the timeout.
"""
import json
import sys

from proton.reactor import Copy, Selector
from proton.utils import BlockingConnection


def main():
    url, queue, selector, timeout = sys.argv[1:5]
    browse = sys.argv[5:6] == ["browse"]
    connection = BlockingConnection(url, timeout=float(timeout), allowed_mechs="PLAIN", allow_insecure_mechs=True)
    try:
        options = [Selector(selector), Copy()] if browse else Selector(selector)
        receiver = connection.create_receiver(queue, options=options)
        try:
            message = receiver.receive(timeout=float(timeout))
        except Exception as timed_out:  # proton raises Timeout
            print("no message: %s" % timed_out)
            sys.exit(1)
        if not browse:
            receiver.accept()
        body = message.body if isinstance(message.body, str) else None
        print(json.dumps({"properties": message.properties, "body_type": type(message.body).__name__,
                          "body": body}))
    finally:
        connection.close()


if __name__ == "__main__":
    main()
