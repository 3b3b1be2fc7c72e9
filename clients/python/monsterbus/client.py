"""A client of the bus: a PUB socket to its frontend, a SUB socket from its backend, an address
of its own (the `replyTo` of everything it sends), and actions awaited until complete."""
import os
import secrets
import time

import zmq

from . import contract
from .curve import CurveSettings
from .envelope import EnvelopeMaker, Message, encode
from .tracker import ActionTracker, Outcome


class NoAnswer(Exception):
    """The bus or a service did not answer in time; says what was still awaited."""


class Client:
    """One connection to the bus. `frontend` and `backend` default to BUS_FRONTEND and
    BUS_BACKEND, `curve` to the CURVE settings in the environment (None there: plaintext).
    With `retry` (seconds), an action not complete after that long is sent again with the same id
    until its timeout, as the gateway's GATEWAY_RETRY_MS: for a sharded deployment, where a device
    may be moving between instances. Use it from one thread; close it (or use `with`) when done."""

    def __init__(self, frontend=None, backend=None, curve="environment", service="python-client", environment=None, device_suffix="",
                 retry=None):
        environment = os.environ if environment is None else environment
        if retry is not None and not 0 < retry <= 3600:
            raise ValueError(f"retry takes seconds above 0 up to 3600 (None: no retry), not {retry!r}")
        self.retry = retry
        # Added to the id of every `device()`: the plugin gives each test its own, so that tests
        # never share a device, and a stack that stays up can be tested again and again.
        self.device_suffix = device_suffix
        self.frontend = frontend or environment.get("BUS_FRONTEND") or "tcp://127.0.0.1:5555"
        self.backend = backend or environment.get("BUS_BACKEND") or "tcp://127.0.0.1:5556"
        self.curve = CurveSettings.from_environment(environment) if curve == "environment" else curve
        # One length for every address, so that none is a prefix of another (a subscription is one).
        self.address = secrets.token_hex(8)
        self.maker = EnvelopeMaker(service)
        self.heard = set()
        self._context = zmq.Context()
        self._pub = self._context.socket(zmq.PUB)
        self._sub = self._context.socket(zmq.SUB)
        for socket in (self._pub, self._sub):
            socket.linger = 0
            if self.curve is not None:
                self.curve.apply(socket)
        for topic in contract.subscriptions(self.address):
            self._sub.setsockopt(zmq.SUBSCRIBE, topic.encode("utf-8"))
        self._pub.connect(self.frontend)
        self._sub.connect(self.backend)
        self._answering = set()

    def close(self):
        self._context.destroy(linger=0)

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()

    def send(self, envelope):
        """Publishes an envelope: two frames, the topic (its type: the bus writes a device's key
        itself) and the JSON."""
        self._pub.send_multipart([envelope["type"].encode("utf-8"), encode(envelope)])

    def receive(self, deadline):
        """The next readable message before `deadline` (time.monotonic()), or None at the deadline.
        A message that is not an envelope, or whose topic is not its type, is skipped."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not self._sub.poll(max(1, int(remaining * 1000))):
                return None
            frames = self._sub.recv_multipart()
            if len(frames) != 2:
                continue
            try:
                message = Message.decode(frames[1])
            except ValueError:
                continue
            if frames[0].decode("utf-8", "replace").split("/")[0] != message.type:
                continue
            if message.type == "sys.pong":
                self.heard.add(message.body.get("service"))
            return message

    def wait_until_answering(self, services=contract.SERVICES, timeout=10.0):
        """Pings until every one of `services` (and `bus`) has answered, so that what they publish
        reaches this client; NoAnswer naming the silent ones after `timeout` seconds."""
        waiting = set(services) - self._answering
        if not waiting:
            return
        deadline = time.monotonic() + timeout
        pings = set()
        retry = 0.01
        while waiting:
            now = time.monotonic()
            if now >= deadline:
                security = "CURVE" if self.curve else "plaintext"
                raise NoAnswer(f"no answer from {', '.join(sorted(waiting))} through the bus at {self.frontend} / {self.backend} ({security}): is the stack running?")
            ping = self.maker.make("sys.ping", {}, reply_to=self.address, new_trace=False)
            pings.add(ping["id"])
            self.send(ping)
            until = min(deadline, now + retry)
            retry = min(retry * 2, 0.2)
            while waiting and (message := self.receive(until)) is not None:
                if message.type == "sys.pong" and message.correlation_id in pings:
                    waiting.discard(message.body.get("service"))
        self._answering |= set(services)

    def act(self, message_type, body, device=None, timeout=10.0):
        """Sends an action and returns its Outcome once every service that handles it, and every
        service it was passed on to, has acknowledged it and every message they list has come."""
        first_hop = contract.first_hop(message_type, body)
        if first_hop is None:
            raise ValueError(f"{message_type} is not an action a client sends")
        self.wait_until_answering(first_hop, timeout=timeout)
        action = self.maker.make(message_type, body, device=device, reply_to=self.address)
        tracker = ActionTracker(action["id"], first_hop, retrying=self.retry is not None)
        self.send(action)
        deadline = time.monotonic() + timeout
        resend_at = deadline if self.retry is None else time.monotonic() + self.retry
        while not tracker.complete:
            message = self.receive(min(deadline, resend_at))
            if message is None:
                if time.monotonic() < deadline:
                    # Idempotence makes a repeat safe: what decided it answers it as a duplicate.
                    self.send(action)
                    resend_at = time.monotonic() + self.retry
                    continue
                refused = tracker.last_set_aside
                last = f"; {refused.service} last answered {refused.body.get('code')}: {refused.body.get('message')}" if refused else ""
                raise NoAnswer(f"{message_type} {action['id']}: still waiting for {tracker.awaiting} after {timeout} s{last}")
            tracker.observe(message)
        return Outcome(action, tracker.received)

    def device(self, device_id, profile=None):
        """A simulated device with this id (and the client's `device_suffix`), described by
        `profile` (a name of contract.PROFILES or a profile dict; default: the built-in profile
        named like the id, if there is one)."""
        if profile is None:
            profile = contract.PROFILES.get(device_id)
        return Device(self, device_id + self.device_suffix, profile)

    def roster(self, timeout=10.0):
        """Every monster (`roster.snapshot`), as the roster answers."""
        return self.act("roster.snapshot.request", {}, timeout=timeout).first("roster.snapshot")

    def forget(self, device_id, timeout=10.0):
        """Every service drops the device's state now; returns the Outcome."""
        return self.act("device.forget", {}, device=device_id, timeout=timeout)


class Device:
    """The actions of one simulated device. Its profile goes with its first action when that
    action reaches presentation-policy, or in a `device.describe` sent just before (as the
    gateway does), so that no action is refused `unknown-device`."""

    def __init__(self, client, device_id, profile=None):
        self.client = client
        self.id = device_id
        if profile is None:
            profile = contract.PROFILES.get(device_id)
        elif isinstance(profile, str):
            if profile not in contract.PROFILES:
                raise ValueError(f"unknown profile {profile!r}; built-in profiles: {', '.join(sorted(contract.PROFILES))}")
            profile = contract.PROFILES[profile]
        self.profile = profile
        self._described = False

    def act(self, message_type, body, timeout=10.0):
        """Sends an action for this device (its profile added the first time); returns its Outcome."""
        body = dict(body)
        if self.profile is not None and not self._described:
            hop = contract.first_hop(message_type, body) or []
            carries = message_type.startswith("device.") and message_type != "device.forget"
            if carries and all(service in hop for service in contract.NEEDS_PROFILE):
                body["profile"] = self.profile
            else:
                self.client.act("device.describe", {"profile": self.profile}, device=self.id, timeout=timeout)
            outcome = self.client.act(message_type, body, device=self.id, timeout=timeout)
            self._described = True
            return outcome
        return self.client.act(message_type, body, device=self.id, timeout=timeout)

    def tap(self, element, **options):
        """Taps an element (`add`, `photo`, `weapon`, a weapon picker button, a monster's name)."""
        return self.act("device.tap", {"element": element}, **options)

    def tap_at(self, x, y, **options):
        """Taps a point of the window, in points."""
        return self.act("device.tap", {"point": {"x": x, "y": y}}, **options)

    def rotate(self, orientation, **options):
        return self.act("device.rotate", {"orientation": orientation}, **options)

    def resize(self, mode, **options):
        """Moves an iPad's window: `compact`, `regular`, or a mode (`slide-over`, `split-view`,
        `split-view-wide`, `split-view-half`, `full-screen`)."""
        if mode in ("compact", "regular"):
            return self.act("device.resize", {"width": mode}, **options)
        width = "regular" if mode in ("full-screen", "split-view-wide") else "compact"
        return self.act("device.resize", {"width": width, "mode": mode}, **options)

    def select(self, monster, **options):
        return self.act("device.select", {"monster": monster}, **options)

    def interaction(self, element, enabled, **options):
        return self.act("device.interaction", {"element": element, "enabled": bool(enabled)}, **options)

    def describe(self, **options):
        """The device's whole state: `layout.state`, `input.state` and `roster.snapshot` bodies."""
        return self.act("device.describe", {}, **options)

    def forget(self, **options):
        outcome = self.client.forget(self.id, **options)
        self._described = False
        return outcome
