"""Receives one AMQP 1.0 message with Qpid Proton, as a Python consumer would, and prints its properties as JSON.

usage: receive.py <url> <queue> <test case> <timeout seconds>

Takes the first message on the queue whose application property "testCase" is the test case (a JMS selector on the
broker) and accepts it; exits 1 when none comes within the timeout.
"""
import json
import sys

from proton.reactor import Selector
from proton.utils import BlockingConnection


def main():
    url, queue, test_case, timeout = sys.argv[1:5]
    connection = BlockingConnection(url, timeout=float(timeout), allowed_mechs="PLAIN", allow_insecure_mechs=True)
    try:
        receiver = connection.create_receiver(queue, options=Selector("testCase = '%s'" % test_case))
        try:
            message = receiver.receive(timeout=float(timeout))
        except Exception as timed_out:  # proton raises Timeout
            print("no message: %s" % timed_out)
            sys.exit(1)
        receiver.accept()
        print(json.dumps({"properties": message.properties, "body_type": type(message.body).__name__}))
    finally:
        connection.close()


if __name__ == "__main__":
    main()
