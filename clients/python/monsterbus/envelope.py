"""Envelopes: the JSON every message is, and attribute access to what came back."""
import datetime
import itertools
import json
import secrets

VERSION = 1

# The envelope's members in the order a sender writes them (docs/messages.md, "The envelope";
# the Envelope schema of docs/asyncapi.yaml lists them so). A reader takes them in any order.
HEADER = ("v", "type", "device", "service", "correlationId", "body", "replyTo", "id", "seq", "time",
          "traceparent", "parentSpan")


class Fields:
    """A JSON object read by attribute (`body.presentation.style`) or by key (`body["style"]`).
    Nested objects are Fields too, lists of them lists of Fields. A field that is not there raises
    AttributeError naming the fields that are."""

    __slots__ = ("_data",)

    def __init__(self, data):
        object.__setattr__(self, "_data", data)

    @staticmethod
    def wrap(value):
        if isinstance(value, dict):
            return Fields(value)
        if isinstance(value, list):
            return [Fields.wrap(item) for item in value]
        return value

    def __getattr__(self, name):
        data = object.__getattribute__(self, "_data")
        if name in data:
            return Fields.wrap(data[name])
        raise AttributeError(f"no field {name!r} here; there are: {', '.join(sorted(data)) or 'none'}")

    def __getitem__(self, name):
        return Fields.wrap(object.__getattribute__(self, "_data")[name])

    def __contains__(self, name):
        return name in object.__getattribute__(self, "_data")

    def get(self, name, default=None):
        data = object.__getattribute__(self, "_data")
        return Fields.wrap(data[name]) if name in data else default

    def at(self, path, default=None):
        """The value at a dotted path (`presentation.anchor.element`, `buttons.0`), or `default`."""
        current = object.__getattribute__(self, "_data")
        for key in path.split("."):
            if isinstance(current, dict) and key in current:
                current = current[key]
            elif isinstance(current, list) and key.isdigit() and int(key) < len(current):
                current = current[int(key)]
            else:
                return default
        return Fields.wrap(current)

    def to_dict(self):
        """The JSON object itself."""
        return object.__getattribute__(self, "_data")

    def __eq__(self, other):
        return isinstance(other, Fields) and self.to_dict() == other.to_dict()

    def __repr__(self):
        return f"Fields({self.to_dict()!r})"


class Message:
    """One envelope received or sent: its header fields as attributes, its body as Fields."""

    def __init__(self, envelope):
        self.envelope = envelope
        self.type = envelope.get("type")
        self.id = envelope.get("id")
        self.correlation_id = envelope.get("correlationId")
        self.service = envelope.get("service")
        self.device = envelope.get("device")
        self.reply_to = envelope.get("replyTo")
        self.traceparent = envelope.get("traceparent")
        self.body = Fields(envelope.get("body") or {})

    @classmethod
    def decode(cls, payload):
        """A message from the JSON frame; ValueError when it is not an envelope."""
        envelope = json.loads(payload)
        if not isinstance(envelope, dict) or not isinstance(envelope.get("type"), str) or not isinstance(envelope.get("body"), dict):
            raise ValueError("not an envelope: it needs a type and a body object")
        return cls(envelope)

    def __repr__(self):
        return f"<{self.type} from {self.service}: {json.dumps(self.envelope['body'], ensure_ascii=False)[:120]}>"


class EnvelopeMaker:
    """Makes the envelopes one client sends: ids `PREFIX-SEQ` (a random prefix of 16 hex digits
    and a sequence number), the time in UTC to the millisecond, a new trace for each action."""

    def __init__(self, service):
        self.service = service
        self.prefix = secrets.token_hex(8)
        self.sequence = itertools.count(1)

    def make(self, message_type, body, device=None, reply_to=None, new_trace=True):
        seq = next(self.sequence)
        identifier = f"{self.prefix}-{seq}"
        # In HEADER's order: what the bus reads without decoding the body comes first.
        envelope = {"v": VERSION, "type": message_type}
        if device is not None:
            envelope["device"] = device
        envelope["service"] = self.service
        envelope["correlationId"] = identifier  # an action causes itself
        envelope["body"] = body
        if reply_to is not None:
            envelope["replyTo"] = reply_to
        envelope["id"] = identifier
        envelope["seq"] = seq
        envelope["time"] = timestamp()
        if new_trace:
            envelope["traceparent"] = f"00-{secrets.token_hex(16)}-{secrets.token_hex(8)}-01"
        return envelope


def timestamp():
    """Now in UTC as the envelopes write it: 2026-11-30T03:31:37.994Z."""
    now = datetime.datetime.now(datetime.timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def encode(envelope):
    """The JSON frame of an envelope (UTF-8, no escaping of non-ASCII)."""
    return json.dumps(envelope, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
