#!/usr/bin/env python3
"""A Monster Bus client in Python (pyzmq), over CURVE: an example for other languages, and the
interoperability test of the bus's keys.

  pyzmq-client.py create-certificates DIR NAME
      writes DIR/NAME.key and DIR/NAME.key_secret with zmq.auth.create_certificates; copy
      NAME.key into the bus's authorized/ folder to admit the client.

  pyzmq-client.py ping --frontend EP --backend EP --certificate NAME.key_secret
                       --server-key bus.key|Z85 [--timeout SECONDS] [SERVICE ...]
      connects PUB to the bus's frontend and SUB to its backend as a CURVE client, publishes
      sys.ping until every SERVICE (default: bus) has answered with a sys.pong, and prints each
      pong as one JSON line. Exit 0 when all answered, 1 if not within the timeout.
"""
import argparse
import datetime
import json
import os
import sys
import time
import uuid

import zmq
import zmq.auth


def envelope(kind, message_id, seq, body):
    now = datetime.datetime.now(datetime.timezone.utc)
    return {
        "v": 1, "type": kind, "id": message_id, "correlationId": message_id,
        "service": "pyzmq-client", "seq": seq,
        "time": now.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "body": body,
    }


def server_key(text):
    if os.path.exists(text):
        public, _ = zmq.auth.load_certificate(text)
        return public
    return text.encode("ascii")


def ping(arguments):
    public, secret = zmq.auth.load_certificate(arguments.certificate)
    if secret is None:
        sys.exit(f"{arguments.certificate} has no secret key: give the .key_secret file")
    context = zmq.Context()
    publisher = context.socket(zmq.PUB)
    subscriber = context.socket(zmq.SUB)
    for socket in (publisher, subscriber):
        socket.linger = 0
        socket.curve_publickey = public
        socket.curve_secretkey = secret
        socket.curve_serverkey = server_key(arguments.server_key)
    subscriber.setsockopt(zmq.SUBSCRIBE, b"sys.pong")
    publisher.connect(arguments.frontend)
    subscriber.connect(arguments.backend)

    waiting = set(arguments.services or ["bus"])
    prefix = f"py-{uuid.uuid4().hex[:12]}"
    sent = set()
    seq = 0
    deadline = time.monotonic() + arguments.timeout
    poller = zmq.Poller()
    poller.register(subscriber, zmq.POLLIN)
    # Publish a ping, wait a little for pongs, repeat: the first pings are lost until the
    # handshake is done and the subscriptions have reached this publisher.
    while waiting and time.monotonic() < deadline:
        seq += 1
        message_id = f"{prefix}-{seq}"
        sent.add(message_id)
        publisher.send_multipart([b"sys.ping", json.dumps(envelope("sys.ping", message_id, seq, {})).encode()])
        resend_at = min(deadline, time.monotonic() + 0.1)
        while waiting and time.monotonic() < resend_at:
            if not poller.poll(max(1, int((resend_at - time.monotonic()) * 1000))):
                continue
            frames = subscriber.recv_multipart()
            if len(frames) != 2:
                continue
            pong = json.loads(frames[1])
            if pong.get("type") == "sys.pong" and pong.get("correlationId") in sent:
                service = pong.get("body", {}).get("service")
                if service in waiting:
                    waiting.discard(service)
                    print(json.dumps(pong), flush=True)
    context.destroy(linger=0)
    if waiting:
        print(f"pyzmq-client: no pong from {', '.join(sorted(waiting))} within {arguments.timeout} s", file=sys.stderr)
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description="A Monster Bus client in Python over CURVE.")
    commands = parser.add_subparsers(dest="command", required=True)
    create = commands.add_parser("create-certificates", help="write NAME.key and NAME.key_secret in DIR")
    create.add_argument("folder", metavar="DIR")
    create.add_argument("name", metavar="NAME")
    pinging = commands.add_parser("ping", help="ping services through the bus over CURVE")
    pinging.add_argument("--frontend", required=True, help="the bus's XSUB endpoint (BUS_FRONTEND)")
    pinging.add_argument("--backend", required=True, help="the bus's XPUB endpoint (BUS_BACKEND)")
    pinging.add_argument("--certificate", required=True, help="this client's NAME.key_secret")
    pinging.add_argument("--server-key", required=True, help="the bus's public certificate (bus.key) or its Z85 key")
    pinging.add_argument("--timeout", type=float, default=5.0, help="seconds to wait (default 5)")
    pinging.add_argument("services", nargs="*", metavar="SERVICE", help="services to wait for (default: bus)")
    arguments = parser.parse_args()
    if arguments.command == "create-certificates":
        os.makedirs(arguments.folder, exist_ok=True)
        for path in zmq.auth.create_certificates(arguments.folder, arguments.name):
            print(path)
        return 0
    return ping(arguments)


if __name__ == "__main__":
    sys.exit(main())
