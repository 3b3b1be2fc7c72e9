#!/usr/bin/env python3
"""The benchmark's peer: presentation-policy's decision for the bench's action (a `device.tap`
of `add` on an iPad: the Photo/Audio popover, presented on one tap and dismissed on the next),
written the way a team would write it instead of the Swift service: pyzmq and orjson.

    presentation_peer.py            (BUS_FRONTEND and BUS_BACKEND from the environment)

It answers `sys.ping` with a `sys.pong` (service `presentation-peer`), and every `device.tap`
with the decision (`presentation.presented` / `presentation.dismissed`) then its `sys.ack`, the
same envelopes as presentation-policy's (trace context included). Anything else gets an
`error`. It keeps one flag per device, the profile given when the device was first seen, and
the last 10,000 action ids (a repeat is acknowledged as a duplicate, not decided again). It ends on SIGTERM, or when its
parent (the bench) is gone.
"""
import os
import signal
import sys
import time
import uuid

import orjson
import zmq

SERVICE = "presentation-peer"
# The answers whose topic carries their presentation's style before the address (Topic.styled).
STYLED = ("presentation.presented", "presentation.dismissed")
# presentation-policy's popover for `add` on an iPad in portrait (from its own answer).
POPOVER = orjson.loads(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "ipad_add_popover.json"), "rb").read())


def timestamp():
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + ".%03dZ" % (int(now * 1000) % 1000)


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    parent = os.getppid()
    context = zmq.Context()
    publisher = context.socket(zmq.PUB)
    subscriber = context.socket(zmq.SUB)
    publisher.sndhwm = 0
    publisher.linger = 0
    subscriber.linger = 0
    for topic in (b"device.tap", b"sys.ping"):
        subscriber.setsockopt(zmq.SUBSCRIBE, topic)
    publisher.connect(os.environ["BUS_FRONTEND"])
    subscriber.connect(os.environ["BUS_BACKEND"])
    prefix = "peer-" + uuid.uuid4().hex[:12] + "-"
    seq = 0
    presented = {}  # device -> True while its popover is up
    profiles = {}   # device -> its profile, from its first action
    handled = {}    # the last 10,000 action ids, oldest first: a repeat is acknowledged as a duplicate

    def envelope(kind, correlation, device, body, cause=None):
        nonlocal seq
        seq += 1
        message_id = prefix + str(seq)
        out = {"v": 1, "type": kind, "id": message_id, "correlationId": correlation, "service": SERVICE,
               "seq": seq, "time": timestamp(), "body": body}
        if device is not None:
            out["device"] = device
        # W3C trace context: a span of its own, in the trace its cause is handled in (or a new one).
        parent = cause.get("traceparent") if cause else None
        if isinstance(parent, str) and len(parent) == 55:
            out["traceparent"] = "00-" + parent[3:35] + "-" + os.urandom(8).hex() + "-01"
            out["parentSpan"] = parent[36:52]
        else:
            out["traceparent"] = "00-" + os.urandom(16).hex() + "-" + os.urandom(8).hex() + "-01"
        # Every answer goes to the asking client's address (topic "type/replyTo"), when it has one;
        # a presentation's after its style ("presentation.presented/popover/replyTo").
        reply_to = cause.get("replyTo") if cause else None
        topic = kind
        if kind in STYLED:
            topic = kind + "/" + body["presentation"]["style"]
        if isinstance(reply_to, str) and 1 <= len(reply_to.encode()) <= 64 and "/" not in reply_to:
            out["replyTo"] = reply_to
            topic = topic + "/" + reply_to
        return message_id, [topic.encode(), orjson.dumps(out)]

    def refuse(correlation, code, text, cause):
        _, frames = envelope("error", correlation, None, {"code": code, "message": text}, cause)
        publisher.send_multipart(frames)

    while True:
        if not subscriber.poll(1000):
            if os.getppid() != parent:
                return 0
            continue
        while True:
            try:
                frames = subscriber.recv_multipart(zmq.NOBLOCK)
            except zmq.Again:
                break
            if len(frames) != 2:
                continue
            try:
                message = orjson.loads(frames[1])
                kind, message_id, device = message["type"], message["id"], message.get("device")
                # The topic is the type, or the type and a key ("device.tap/3f": the bus keys a
                # device's request by its bucket).
                if message["v"] != 1 or frames[0].split(b"/", 1)[0] != kind.encode() or not message["time"]:
                    raise ValueError("bad envelope")
                correlation = message.get("correlationId", message_id)
                body = message["body"]
            except (ValueError, KeyError, TypeError, AttributeError):
                continue
            # What it causes is one trace: its own, or one started for its handling.
            trace = message.get("traceparent")
            if not (isinstance(trace, str) and len(trace) == 55):
                message["traceparent"] = "00-" + os.urandom(16).hex() + "-" + os.urandom(8).hex() + "-01"
            if kind == "sys.ping":
                _, reply = envelope("sys.pong", message_id, None, {"service": SERVICE, "version": "peer", "pid": os.getpid()}, message)
                publisher.send_multipart(reply)
                continue
            if message_id in handled:
                _, ack = envelope("ack", correlation, device, {"handled": kind, "handledId": message_id, "emitted": [], "forwarded": [], "duplicate": True}, message)
                publisher.send_multipart(ack)
                continue
            handled[message_id] = None
            if len(handled) > 10_000:
                del handled[next(iter(handled))]
            if not device or body.get("element") != "add":
                refuse(correlation, "unsupported", "the peer decides only a tap on add", message)
                continue
            if device not in profiles:
                profile = body.get("profile")
                if profile is None:
                    refuse(correlation, "unknown-device", f"device '{device}' has no profile yet", message)
                    continue
                profiles[device] = profile
            if presented.get(device):
                presented[device] = False
                decision_id, decision = envelope("presentation.dismissed", correlation, device, {"presentation": POPOVER, "reason": "toggle"}, message)
            else:
                presented[device] = True
                decision_id, decision = envelope("presentation.presented", correlation, device, {"presentation": POPOVER, "reason": "tap"}, message)
            publisher.send_multipart(decision)
            _, ack = envelope("ack", correlation, device, {"handled": kind, "handledId": message_id, "emitted": [decision_id], "forwarded": [], "duplicate": False}, message)
            publisher.send_multipart(ack)


if __name__ == "__main__":
    sys.exit(main())
