"""Knowing, without sleeping, when everything an action caused has arrived (as the gateway's
ActionTracker): every service acknowledges each message it handles with an `ack` listing what it
published (`emitted`) and what it passed on to another service (`forwarded`, which that service
acknowledges in turn); a message another service also reads (`contract.READERS`) awaits that
service's acknowledgement too. The action is complete when every acknowledgement expected and
every message they list has arrived. Of a service's acknowledgements of one message, the first
counts until a later one lists other messages and takes its place: a standby may list ids that
never come, the owner's answer to a repeat the right ones."""
from .contract import READERS, SEND_AGAIN


class ActionTracker:
    """`retrying`: the action is sent again until complete, so a refusal that only says to send it
    again (contract.SEND_AGAIN: an instance that does not decide it now) and the acknowledgement
    listing it are no answer: set aside, the last one kept in `last_set_aside`."""

    def __init__(self, action_id, first_hop, retrying=False):
        self.action_id = action_id
        self.first_hop = list(first_hop)
        self.received = []
        self.retrying = retrying
        self.last_set_aside = None
        self._set_aside = set()
        self._ids = set()
        self._pending = {(action_id, service) for service in first_hop}
        # The acknowledgement that counts of each (message, service): awaited, or not (yet).
        self._taken = {}
        self._early = {}
        self._missing = set()
        # Messages another service reads, awaited there once an acknowledgement lists them: a
        # decision whose acknowledgement never came (its owner died, its heir decided again with
        # new messages) leaves nothing to wait for.
        self._unlisted_reads = {}
        self._listed = set()

    def observe(self, message):
        """Takes in one message; returns whether the action caused it (and it is kept)."""
        if message.correlation_id != self.action_id or message.id == self.action_id or message.id in self._ids:
            return False
        if self.retrying and self._sets_aside(message):
            return False
        self.received.append(message)
        self._ids.add(message.id)
        self._missing.discard(message.id)
        if message.type == "ack":
            key = (message.body.get("handledId"), message.service)
            if key in self._pending:
                self._pending.discard(key)
                self._take(message.body, key)
            elif key in self._taken:
                if _lists_other(message.body, self._taken[key]):
                    self._taken[key] = message.body
                    self._recount()
            elif key not in self._early or _lists_other(message.body, self._early[key]):
                self._early[key] = message.body
        if message.type in READERS:
            if message.id in self._listed:
                self._expect_readers(message.id, message.type)
            else:
                self._unlisted_reads[message.id] = message.type
        return True

    def _expect_readers(self, identifier, message_type):
        for reader in READERS.get(message_type, []):
            self._expect((identifier, reader))

    def _sets_aside(self, message):
        # A service publishes its refusal before its acknowledgement: the refusal comes first.
        if message.type == "error" and message.body.get("code") in SEND_AGAIN:
            self._set_aside.add(message.id)
            self.last_set_aside = message
            return True
        return message.type == "ack" and any(emitted in self._set_aside for emitted in message.body.get("emitted", []))

    def _expect(self, key):
        early = self._early.pop(key, None)
        if early is not None:
            self._take(early, key)
        else:
            self._pending.add(key)

    def _recount(self):
        # After an acknowledgement took another's place: each that counts is taken as if it came
        # first, and what only the replaced one listed is not awaited.
        self._early.update(self._taken)
        self._taken = {}
        self._pending = set()
        self._missing = set()
        self._listed = set()
        self._unlisted_reads = {message.id: message.type for message in self.received if message.type in READERS}
        for service in self.first_hop:
            self._expect((self.action_id, service))

    def _take(self, ack, key):
        self._taken[key] = ack
        for emitted in ack.get("emitted", []):
            if emitted not in self._listed:
                self._listed.add(emitted)
                if emitted in self._unlisted_reads:
                    self._expect_readers(emitted, self._unlisted_reads.pop(emitted))
        # A repeat's acknowledgement lists what the first delivery caused, which is not sent again.
        if ack.get("duplicate"):
            return
        for emitted in ack.get("emitted", []):
            if emitted not in self._ids:
                self._missing.add(emitted)
        for forward in ack.get("forwarded", []):
            self._expect((forward["id"], forward["service"]))

    @property
    def complete(self):
        return not self._pending and not self._missing

    @property
    def first_hop_answered(self):
        return not any(identifier == self.action_id for identifier, _ in self._pending)

    @property
    def awaiting(self):
        """What is still awaited, for a person."""
        parts = [f"an acknowledgement from {service}" for service in sorted({service for _, service in self._pending})]
        if self._missing:
            parts.append(f"{len(self._missing)} message(s) the services say they published")
        return " and ".join(parts)


def _lists_other(ack, counting):
    """Whether `ack` lists other messages than `counting`, the acknowledgement it would replace."""
    return set(ack.get("emitted", [])) != set(counting.get("emitted", []))


class Outcome:
    """Everything one action caused, acknowledgements included, with attribute access to it:
    `outcome.presented.presentation.style`, `outcome.first("input.shown").input.width`."""

    def __init__(self, action, messages):
        self.action = action
        self.messages = list(messages)

    def all(self, message_type):
        """The bodies of every message of `message_type`, in arrival order."""
        return [message.body for message in self.messages if message.type == message_type]

    def first(self, message_type):
        """The body of the first message of `message_type`; LookupError naming what came instead."""
        for message in self.messages:
            if message.type == message_type:
                return message.body
        raise LookupError(f"no {message_type} message; the action caused {', '.join(self.types) or 'nothing'}")

    def has(self, message_type):
        return any(message.type == message_type for message in self.messages)

    @property
    def types(self):
        """The types of what came back, acknowledgements left out."""
        return [message.type for message in self.messages if message.type != "ack"]

    @property
    def errors(self):
        """The `error` bodies: what the services refused, with `code` and `message`."""
        return self.all("error")

    @property
    def result(self):
        """The gateway's verdict: `refused`, `reported` (a question), `changed` or `unchanged`."""
        if self.errors:
            return "refused"
        if self.action["type"] in ("device.describe", "roster.snapshot.request"):
            return "reported"
        quiet = {"ack", "action.unchanged", "input.tap", "input.passed"}
        return "changed" if any(message.type not in quiet for message in self.messages) else "unchanged"

    @property
    def presented(self):
        return self.first("presentation.presented")

    @property
    def dismissed(self):
        return self.first("presentation.dismissed")

    @property
    def layout(self):
        return self.first("layout.changed")

    def __repr__(self):
        return f"<Outcome of {self.action['type']}: {', '.join(self.types) or 'nothing'}>"
