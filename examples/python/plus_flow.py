#!/usr/bin/env python3
"""The iPhone `+` flow of Monster Bus from Python, knowing only the contract (docs/asyncapi.yaml):
the endpoints, the envelope and the bodies come from the AsyncAPI document, and every message
sent or received is checked against its schema there.

    pip install pyzmq pyyaml jsonschema
    BUS_FRONTEND=tcp://127.0.0.1:5555 BUS_BACKEND=tcp://127.0.0.1:5556 python3 examples/python/plus_flow.py

It taps `+` on an iPhone (an "Add…" alert appears) and then Cancel (the alert is dismissed), and
exits 0 when the services answered as the contract says. Plaintext bus only (no CURVE keys).
"""
import datetime
import itertools
import json
import os
import secrets
import sys
import time

import yaml
import zmq
from jsonschema import Draft7Validator

HERE = os.path.dirname(os.path.abspath(__file__))
CONTRACT = os.environ.get("ASYNCAPI", os.path.join(HERE, "..", "..", "docs", "asyncapi.yaml"))
with open(CONTRACT, encoding="utf-8") as handle:
    DOC = yaml.safe_load(handle)
MESSAGES = DOC["components"]["messages"]
SCHEMAS = DOC["components"]["schemas"]


def schema_for(message_type):
    """A validator of whole envelopes of `message_type`, from the document."""
    name = message_type.replace(".", "_")
    if name not in MESSAGES:
        raise SystemExit(f"the contract has no message {message_type}")
    return Draft7Validator({"$ref": f"#/components/messages/{name}/payload", "components": DOC["components"]})


def check(envelope):
    """Raises if `envelope` is not what the contract says for its type."""
    errors = list(schema_for(envelope["type"]).iter_errors(envelope))
    if errors:
        raise SystemExit(f"{envelope['type']} breaks the contract: " + "; ".join(e.message for e in errors))
    return envelope


class Client:
    """A PUB socket to the bus's frontend and a SUB socket from its backend (the two servers)."""

    def __init__(self):
        servers = DOC["servers"]
        self.frontend = os.environ.get(servers["frontend"]["x-zeromq"]["environment"]) or servers["frontend"]["x-zeromq"]["endpoint"]
        self.backend = os.environ.get(servers["backend"]["x-zeromq"]["environment"]) or servers["backend"]["x-zeromq"]["endpoint"]
        context = zmq.Context.instance()
        self.pub = context.socket(zmq.PUB)
        self.sub = context.socket(zmq.SUB)
        for socket in (self.pub, self.sub):
            socket.setsockopt(zmq.LINGER, 0)
        self.sub.setsockopt(zmq.SUBSCRIBE, b"")
        self.pub.connect(self.frontend)
        self.sub.connect(self.backend)
        self.prefix = secrets.token_hex(8)
        self.sequence = itertools.count(1)

    def envelope(self, message_type, body, device=None):
        """A new message: the header fields the Envelope schema requires, a new trace, `body`."""
        envelope_schema = SCHEMAS["Envelope"]
        seq = next(self.sequence)
        identifier = f"{self.prefix}-{seq}"
        now = datetime.datetime.now(datetime.timezone.utc)
        header = {
            "v": envelope_schema["properties"]["v"]["const"],
            "type": message_type,
            "id": identifier,
            "correlationId": identifier,  # an action causes itself
            "service": "python-example",
            "seq": seq,
            "time": now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z",
            "traceparent": f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-01",
            "body": body,
        }
        if device is not None:
            header["device"] = device
        missing = [field for field in envelope_schema["required"] if field not in header]
        if missing:
            raise SystemExit(f"the contract requires envelope fields this client does not know: {missing}")
        return check(header)

    def send(self, envelope):
        """Two frames: the topic (the channel's address) and the JSON envelope.

        A keyed address (`device.tap/{owner}/{bucket}`, `ack/{replyTo}`) is sent bare: the bus sets
        a tap's owner and a device's bucket itself, and this client sets no replyTo (it subscribes
        to everything)."""
        address = DOC["channels"][envelope["type"].replace(".", "_")]["address"].split("/")[0]
        self.pub.send_multipart([address.encode(), json.dumps(envelope, ensure_ascii=False).encode()])

    def receive(self, deadline):
        """The next envelope before `deadline` (monotonic), checked against the contract; None at the deadline."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self.sub.poll(int(remaining * 1000) + 1):
                return None
            topic, payload = self.sub.recv_multipart()
            envelope = json.loads(payload)
            # The topic is the type, or the type and a key (a device's bucket, a tap's owner and
            # bucket, a client's replyTo).
            if topic.decode().split("/")[0] != envelope.get("type"):
                raise SystemExit(f"topic {topic!r} is not the type {envelope.get('type')}")
            return check(envelope)

    def wait_for_path(self, service, timeout=10):
        """Pings until `service` answers with a pong: both sockets are then connected through the bus."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ping = self.envelope("sys.ping", {})
            self.send(ping)
            until = min(deadline, time.monotonic() + 0.05)
            while (envelope := self.receive(until)) is not None:
                if envelope["type"] == "sys.pong" and envelope["correlationId"] == ping["id"] and envelope["body"]["service"] == service:
                    return
        raise SystemExit(f"no pong from {service} through {self.frontend} / {self.backend}")

    def act(self, message_type, body, device, timeout=10):
        """Sends an action and returns what it caused, once presentation-policy's ack and every
        message it lists have arrived (what the `reply` of the action's operation says to wait for)."""
        action = self.envelope(message_type, body, device)
        self.send(action)
        received, ack = [], None
        deadline = time.monotonic() + timeout
        while ack is None or not set(ack["body"]["emitted"]) <= {m["id"] for m in received}:
            envelope = self.receive(deadline)
            if envelope is None:
                raise SystemExit(f"{message_type}: no complete answer within {timeout} s")
            if envelope["correlationId"] != action["id"]:
                continue
            trace_id = action["traceparent"].split("-")[1]
            if envelope.get("traceparent", "").split("-")[1:2] != [trace_id]:
                raise SystemExit(f"{envelope['type']} does not carry the action's trace id")
            received.append(envelope)
            if envelope["type"] == "ack" and envelope["body"]["handledId"] == action["id"]:
                ack = envelope
        return received


def iphone_profile():
    """An iPhone, 375×667 pt, portrait, compact, iOS 17.0 — checked against DeviceProfile's schema."""
    profile = {"idiom": "phone", "screen": {"width": 375, "height": 667}, "os": "17.0",
               "orientation": "portrait", "widthClass": "compact"}
    errors = list(Draft7Validator({"$ref": "#/components/schemas/DeviceProfile", "components": DOC["components"]}).iter_errors(profile))
    if errors:
        raise SystemExit("the iPhone profile breaks the contract: " + "; ".join(e.message for e in errors))
    return profile


def main():
    device = os.environ.get("EXAMPLE_DEVICE", "python-iphone")
    client = Client()
    client.wait_for_path("presentation-policy")

    caused = client.act("device.tap", {"element": "add", "profile": iphone_profile()}, device)
    presented = [m for m in caused if m["type"] == "presentation.presented"]
    if not presented or presented[0]["body"]["presentation"]["style"] != "alert":
        raise SystemExit(f"tap add: expected an alert, got {[m['type'] for m in caused]}")
    alert = presented[0]["body"]["presentation"]
    print(f"{device}: alert “{alert['message']}” with buttons {', '.join(alert['buttons'])}")

    caused = client.act("device.tap", {"element": "cancel"}, device)
    dismissed = [m for m in caused if m["type"] == "presentation.dismissed"]
    if not dismissed or dismissed[0]["body"].get("buttonIndex") != 0:
        raise SystemExit(f"tap cancel: expected the alert dismissed by Cancel, got {[m['type'] for m in caused]}")
    print(f"{device}: alert dismissed by {dismissed[0]['body']['button']} (index {dismissed[0]['body']['buttonIndex']})")


if __name__ == "__main__":
    sys.exit(main())
