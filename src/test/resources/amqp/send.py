"""Sends AMQP 1.0 messages with Qpid Proton, as a Python producer would.

usage: send.py <url> <queue> <messages.json>

url is amqp://user:password@host:port (SASL PLAIN); messages.json is a list of objects:
  test_case   the application property "testCase" (for selectors on the dead-letter queue)
  section     "string" (amqp-value string), "data" (a data section of the UTF-8 bytes),
              "list" or "map" (amqp-value list or map)
  body        the string, or the list or map (JSON values)
  message_id  optional; without it the message has none
  properties  optional: more application properties (an object of strings)
"""
import json
import sys

from proton import Message
from proton.utils import BlockingConnection


def body_of(spec):
    section = spec["section"]
    if section == "data":
        return spec["body"].encode("utf-8"), True
    if section in ("string", "list", "map"):
        return spec["body"], False
    raise ValueError("unknown section " + section)


def main():
    url, queue, path = sys.argv[1:4]
    with open(path, encoding="utf-8") as spec_file:
        specs = json.load(spec_file)
    connection = BlockingConnection(url, timeout=30, allowed_mechs="PLAIN", allow_insecure_mechs=True)
    try:
        sender = connection.create_sender(queue)
        for spec in specs:
            body, inferred = body_of(spec)
            message = Message(body=body, inferred=inferred, durable=True,
                              properties={"testCase": spec["test_case"], **spec.get("properties", {})})
            if spec.get("message_id"):
                message.id = spec["message_id"]
            sender.send(message)
    finally:
        connection.close()
    print("sent %d messages" % len(specs))


if __name__ == "__main__":
    main()
