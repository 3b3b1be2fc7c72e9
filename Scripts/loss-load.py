#!/usr/bin/env python3
"""The load of Scripts/multihost-smoke: DEVICES devices driven through the bus (one or a pair,
CURVE) with a window of actions in flight, while a host is lost; then what the loss cost.

Each device's first action is `device.tap add` with the ipad profile (a popover), then
`device.rotate`, landscape and portrait in turn: every action changes the device's state. An
action unanswered is sent again with the same id every --retry-ms until --deadline seconds
after its first sending. It is *acked* when every acknowledgement it awaits and every message
they list has come (as the gateway's ActionTracker: the first hop's — a sharded owner's standby's,
which decided the action too and lists what the owner publishes, or the owner's own for a repeat
—, those of what each ack lists in `forwarded`, and input-handling's of each `layout.changed`; of
a service's acks of one message, the first counts until a later one lists other messages and
takes its place).

Coordination with the script, by files in --folder, each polled: the client writes `running`
once it has loaded for --before seconds; the script loses a host and writes `lost-at` (the loss's
time.time()); the client loads --after seconds more, stops starting actions, lets those in flight
finish (or reach their deadline), describes every device, and writes `result.json` (and the ids
of the acked actions, one a line, in `acked-ids`).

What it measures (the last line of Scripts/multihost-smoke):
  lost            devices whose state (orientation, popover shown) is not the one their last acked
                  action left (or that of a later action never acked: it may have been decided);
  decided_twice   actions decided again after they were acked (a non-duplicate first-hop ack of
                  another decision — other ids emitted, one of them come — arriving once the action
                  was acked; a standby's acknowledgement of ids its owner never published is no
                  decision), or decided twice before the loss (when no
                  move can explain a second decision); a decision repeated before its action was
                  acked, by the heir of an owner lost before its standby held it, is by design and
                  counted apart (redecided_before_ack);
  missing_effects acked actions with a message their acks list in `emitted` (not `forwarded`)
                  that never arrived (an action is acked only once those came, and sent again
                  until then: this counts an acknowledgement that took another's place after it);
  resume_p99_s    p99 over devices of the time the loss cost each one: from the loss (or, if later,
                  from the first sending of its earliest action not acked by then, an action given
                  up at its deadline included) to its first action acked after the loss;
                  resume_from_loss_p99_s is the plain time from the loss to it (it includes each
                  device's wait for its turn in the window);
  recovered       actions acked per second after the loss (from the loss + TTL + 2 s to the end of
                  the load) ÷ (actions acked per second before it × surviving instances ÷
                  instances before).
"""
import argparse
import collections
import json
import os
import sys
import time

import zmq

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "clients", "python"))
from monsterbus import contract  # noqa: E402
from monsterbus.curve import CurveSettings  # noqa: E402
from monsterbus.envelope import EnvelopeMaker, Message, encode  # noqa: E402

FIRST_HOP = contract.PRESENTATION_POLICY


class Action:
    """One action of one device and everything observed of it."""

    def __init__(self, envelope, device, orientation):
        self.envelope = envelope
        self.frame = [envelope["type"].encode("utf-8"), encode(envelope)]
        self.id = envelope["id"]
        self.device = device
        self.orientation = orientation  # the device's orientation once the action is done
        self.first_sent = None
        self.next_send = 0.0
        self.sends = 0
        self.acked_at = None
        self.abandoned = False
        self.ids = set()
        self.kinds = {}  # id -> type of what was received, and of what acks forwarded
        self.pending = {(self.id, FIRST_HOP)}
        self.taken = {}  # (id, service) -> the ack that counts, of a message awaited
        self.early = {}  # the same, of a message not awaited (yet)
        self.missing = set()
        self.first_hop = []  # (what it emitted, when) of each non-duplicate first-hop ack
        self.refused = None  # an error's code: the action was refused, not done
        self.set_aside = {}  # id -> code of each refusal that only says to send it again
        self.unlisted_reads = {}  # id -> type of a message another service reads, no ack listing it yet
        self.listed = set()  # what the acks taken list as emitted

    def observe(self, message, now):
        if message.id == self.id or message.id in self.ids:
            return
        if message.type == "error" and message.body.get("code") in contract.SEND_AGAIN:
            # Only says to send it again: no answer yet (the retry finds the instance deciding
            # now), and neither is the acknowledgement listing it.
            self.set_aside[message.id] = message.body.get("code")
            return
        if message.type == "ack" and self.set_aside.keys() & set(message.body.to_dict().get("emitted", [])):
            return
        self.ids.add(message.id)
        self.kinds[message.id] = message.type
        self.missing.discard(message.id)
        if message.type == "error":
            self.refused = self.refused or message.body.get("code")
        if message.type == "ack":
            body = message.body.to_dict()
            handled = body.get("handledId")
            key = (handled, message.service)
            if handled == self.id and message.service == FIRST_HOP and not body.get("duplicate"):
                self.first_hop.append((tuple(body.get("emitted", [])), now))
            if key in self.pending:
                self.pending.discard(key)
                self.take(body, key)
            elif key in self.taken:
                if lists_other(body, self.taken[key]):
                    self.taken[key] = body
                    self.recount()
            elif key not in self.early or lists_other(body, self.early[key]):
                self.early[key] = body
        # Awaited where it is read once an acknowledgement lists it (as the gateway's ActionTracker).
        if message.type in contract.READERS:
            if message.id in self.listed:
                self.expect_readers(message.id, message.type)
            else:
                self.unlisted_reads[message.id] = message.type
        # Done once every acknowledgement and every message they list has come: a standby's
        # acknowledgement lists what its owner publishes, and may come first (or alone, the owner lost).
        if not self.pending and not self.missing and self.acked_at is None and self.refused is None:
            self.acked_at = now

    @property
    def decisions(self):
        """When each decision was first acknowledged. A decision is known by what it emitted, and
        counts once one of its messages came: a standby's acknowledgement of ids its owner never
        published (it decided a retry of an action it had missed, its owner answering the repeat)
        is no decision."""
        known, times = set(), []
        for decision, at in self.first_hop:
            if decision not in known and set(decision) & self.ids:
                known.add(decision)
                times.append(at)
        return times

    @property
    def decided_after_ack(self):
        return self.acked_at is not None and any(at > self.acked_at for at in self.decisions)

    def expect(self, key):
        early = self.early.pop(key, None)
        if early is not None:
            self.take(early, key)
        else:
            self.pending.add(key)

    def expect_readers(self, identifier, message_type):
        for reader in contract.READERS.get(message_type, []):
            self.expect((identifier, reader))

    def recount(self):
        # After an ack took another's place: each that counts is taken as if it came first, and
        # what only the replaced one listed is not awaited.
        self.early.update(self.taken)
        self.taken = {}
        self.pending = set()
        self.missing = set()
        self.listed = set()
        self.unlisted_reads = {i: self.kinds[i] for i in self.ids if self.kinds[i] in contract.READERS}
        self.expect((self.id, FIRST_HOP))

    def take(self, ack, key):
        self.taken[key] = ack
        for emitted in ack.get("emitted", []):
            if emitted not in self.listed:
                self.listed.add(emitted)
                if emitted in self.unlisted_reads:
                    self.expect_readers(emitted, self.unlisted_reads.pop(emitted))
        if ack.get("duplicate"):
            return
        passed_on = {forward["id"] for forward in ack.get("forwarded", [])}
        for emitted in ack.get("emitted", []):
            if emitted not in self.ids and emitted not in passed_on:
                self.missing.add(emitted)
        for forward in ack.get("forwarded", []):
            self.kinds.setdefault(forward["id"], forward.get("type", "forwarded"))
            self.expect((forward["id"], forward["service"]))


def lists_other(ack, counting):
    """Whether `ack` lists other messages than `counting`, the ack it would replace."""
    return set(ack.get("emitted", [])) != set(counting.get("emitted", []))


class Load:
    def __init__(self, arguments):
        self.arguments = arguments
        self.curve = CurveSettings.from_environment({"BUS_KEYS_DIR": arguments.keys})
        self.address = os.urandom(8).hex()
        self.maker = EnvelopeMaker("python-client")
        self.context = zmq.Context()
        self.pub = self.context.socket(zmq.PUB)
        self.sub = self.context.socket(zmq.SUB)
        for socket in (self.pub, self.sub):
            socket.linger = 0
            socket.sndhwm = 1_000_000
            socket.rcvhwm = 1_000_000
            self.curve.apply(socket)
        for topic in contract.subscriptions(self.address):
            self.sub.setsockopt(zmq.SUBSCRIBE, topic.encode("utf-8"))
        for endpoint in arguments.frontends.split(","):
            self.pub.connect(endpoint)
        for endpoint in arguments.backends.split(","):
            self.sub.connect(endpoint)
        self.devices = [f"{arguments.prefix}{n}" for n in range(1, arguments.devices + 1)]
        self.actions = {}  # id -> Action
        self.by_device = collections.defaultdict(list)
        self.in_flight = {}
        self.ready = collections.deque(self.devices)
        self.described = {}  # action id -> (device, layout.state body) of a describe

    def next_action(self, device):
        history = self.by_device[device]
        if not history:
            body = {"element": "add", "profile": contract.PROFILES["ipad"]}
            envelope = self.maker.make("device.tap", body, device=device, reply_to=self.address)
            return Action(envelope, device, "portrait")
        orientation = "portrait" if history[-1].orientation == "landscape" else "landscape"
        envelope = self.maker.make("device.rotate", {"orientation": orientation}, device=device, reply_to=self.address)
        return Action(envelope, device, orientation)

    def send(self, action, now):
        if action.first_sent is None:
            action.first_sent = now
        action.sends += 1
        action.next_send = now + self.arguments.retry_ms / 1000
        self.pub.send_multipart(action.frame)

    def receive(self, until):
        """Takes in every message until `until` (time.monotonic()), at least what is readable now."""
        while True:
            timeout = max(0, int((until - time.monotonic()) * 1000))
            if not self.sub.poll(timeout):
                return
            while True:
                try:
                    frames = self.sub.recv_multipart(zmq.NOBLOCK)
                except zmq.Again:
                    break
                if len(frames) != 2:
                    continue
                try:
                    message = Message.decode(frames[1])
                except ValueError:
                    continue
                now = time.time()
                action = self.actions.get(message.correlation_id)
                if action is not None:
                    action.observe(message, now)
                    done = action.acked_at is not None or (action.refused is not None and not action.pending)
                    if done and action.id in self.in_flight:
                        del self.in_flight[action.id]
                        self.ready.append(action.device)
                elif message.correlation_id in self.described and message.service == FIRST_HOP:
                    device, _ = self.described[message.correlation_id]
                    if message.type == "layout.state":
                        self.described[message.correlation_id] = (device, message.body.to_dict())
                    elif message.type == "error":
                        self.described[message.correlation_id] = (device, {"error": message.body.get("code")})
            if time.monotonic() >= until:
                return

    def step(self, starting):
        """Starts actions while the window allows (when `starting`), sends again what is due,
        gives up what passed its deadline; then reads for a moment."""
        now = time.time()
        while starting and len(self.in_flight) < self.arguments.window and self.ready:
            device = self.ready.popleft()
            action = self.next_action(device)
            self.actions[action.id] = action
            self.by_device[device].append(action)
            self.in_flight[action.id] = action
            self.send(action, now)
        for action in list(self.in_flight.values()):
            if now - action.first_sent > self.arguments.deadline:
                action.abandoned = True
                del self.in_flight[action.id]
                self.ready.append(action.device)
            elif now >= action.next_send:
                self.send(action, now)
        self.receive(time.monotonic() + 0.01)

    def wait_for_bus(self):
        """Pings until presentation-policy and input-handling answer through every bus."""
        deadline = time.monotonic() + 30
        heard = set()
        while time.monotonic() < deadline:
            ping = self.maker.make("sys.ping", {}, reply_to=self.address, new_trace=False)
            self.pub.send_multipart([b"sys.ping", encode(ping)])
            until = time.monotonic() + 0.2
            while time.monotonic() < until:
                if self.sub.poll(50):
                    frames = self.sub.recv_multipart()
                    if len(frames) == 2:
                        try:
                            message = Message.decode(frames[1])
                        except ValueError:
                            continue
                        if message.type == "sys.pong":
                            heard.add(message.body.get("service"))
            if {contract.PRESENTATION_POLICY, contract.INPUT_HANDLING} <= heard:
                return
        sys.exit(f"loss-load: no pong from the services through {self.arguments.frontends}")

    def run(self):
        arguments = self.arguments
        folder = arguments.folder
        self.wait_for_bus()
        started = time.time()
        running_written = False
        lost_at = None
        lost_file = os.path.join(folder, "lost-at")
        while True:
            self.step(starting=True)
            now = time.time()
            if not running_written and now - started >= arguments.before:
                with open(os.path.join(folder, "running"), "w") as handle:
                    handle.write(f"{now}\n")
                running_written = True
            if running_written and lost_at is None and os.path.exists(lost_file):
                with open(lost_file) as handle:
                    text = handle.read().strip()
                if text:
                    lost_at = float(text)
            if lost_at is not None and now - lost_at >= arguments.after:
                break
            if running_written and lost_at is None and now - started > arguments.before + arguments.wait_loss:
                sys.exit("loss-load: the loss never came (no lost-at file)")
        stopped = time.time()
        # The actions in flight: until acked or past their deadline.
        while self.in_flight:
            self.step(starting=False)
        # Effects still on their way: a moment more, bounded.
        drain = time.time() + 2
        while time.time() < drain and any(a.acked_at and a.missing for a in self.actions.values()):
            self.receive(time.monotonic() + 0.05)
        states = self.describe_all()
        return self.report(started, lost_at, stopped, states)

    def describe_all(self):
        """Each device's layout.state, asked with a window and sent again until answered."""
        waiting = {}
        for device in self.devices:
            envelope = self.maker.make("device.describe", {}, device=device, reply_to=self.address)
            self.described[envelope["id"]] = (device, None)
            waiting[envelope["id"]] = [envelope, 0.0, time.time()]
        queue = collections.deque(waiting)
        flying = set()
        deadline = time.time() + self.arguments.deadline + 30
        while (queue or flying) and time.time() < deadline:
            while queue and len(flying) < self.arguments.window:
                flying.add(queue.popleft())
            now = time.time()
            for identifier in list(flying):
                if self.described[identifier][1] is not None:
                    flying.discard(identifier)
                    continue
                entry = waiting[identifier]
                if now >= entry[1]:
                    envelope = entry[0]
                    self.pub.send_multipart([envelope["type"].encode("utf-8"), encode(envelope)])
                    entry[1] = now + self.arguments.retry_ms / 1000
            self.receive(time.monotonic() + 0.01)
        return {device: state for device, state in self.described.values()}

    def report(self, started, lost_at, stopped, states):
        arguments = self.arguments
        actions = list(self.actions.values())
        acked = [a for a in actions if a.acked_at is not None]
        # lost: the state seen is neither the last acked action's nor a later unacked one's.
        lost = []
        for device in self.devices:
            history = self.by_device[device]
            if not any(a.acked_at is not None for a in history):
                continue
            last = max(i for i, a in enumerate(history) if a.acked_at is not None)
            allowed = {history[last].orientation} | {a.orientation for a in history[last + 1:]}
            state = states.get(device)
            seen = None
            popover = None
            if state is not None and "error" in state:
                seen = state["error"]
            elif state is not None:
                seen = (state.get("layout") or {}).get("orientation")
                popover = state.get("presentation") is not None
            if seen not in allowed or not popover:
                lost.append({"device": device, "expected": sorted(allowed), "seen": seen, "popover": popover})
        twice = [a for a in actions if a.decided_after_ack or (len(a.decisions) > 1 and a.decisions[1] < lost_at)]
        twice_ids = {a.id for a in twice}
        redecided = [a for a in actions if len(a.decisions) > 1 and a.id not in twice_ids]
        missing = [a for a in acked if a.missing]
        # resume: per device, its first action acked after the loss.
        resume, resume_raw, never = [], [], []
        for device in self.devices:
            after = [a for a in self.by_device[device] if a.acked_at is not None and a.acked_at > lost_at]
            if not after:
                never.append(device)
                continue
            first = min(after, key=lambda a: a.acked_at)
            # Waiting since the first sending of its earliest action not acked by the loss (an
            # action given up at its deadline counts: the device waited through it).
            waiting = min(a.first_sent for a in self.by_device[device]
                          if a.first_sent is not None and (a.acked_at is None or a.acked_at > lost_at))
            resume.append(first.acked_at - max(lost_at, waiting))
            resume_raw.append(first.acked_at - lost_at)
        resume_p99 = percentile(resume + [float("inf")] * len(never), 0.99)
        # The same over the devices none of whose actions was given up: the move alone.
        smooth = [value for device, value in zip([d for d in self.devices if d not in never], resume)
                  if not any(a.abandoned for a in self.by_device[device])]
        raw_p99 = percentile(resume_raw + [float("inf")] * len(never), 0.99)
        warm = started + min(5.0, arguments.before / 3)
        before = [a for a in acked if warm <= a.acked_at < lost_at]
        settle = lost_at + arguments.ttl + 2
        after = [a for a in acked if settle <= a.acked_at < stopped]
        before_rate = len(before) / max(lost_at - warm, 1e-9)
        after_rate = len(after) / max(stopped - settle, 1e-9)
        share = before_rate * arguments.survivors / arguments.instances
        result = {
            "acked": len(acked), "actions": len(actions),
            "abandoned": sum(1 for a in actions if a.abandoned),
            "abandoned_awaiting": dict(collections.Counter(
                f"{a.kinds.get(i, 'the action' if i == a.id else '?')} by {service}"
                for a in actions if a.abandoned for i, service in a.pending)),
            "abandoned_ids": [a.id for a in actions if a.abandoned][:20],
            "refused": dict(collections.Counter(a.refused for a in actions if a.refused)),
            "set_aside": dict(collections.Counter(code for a in actions for code in a.set_aside.values())),
            "retried": sum(1 for a in actions if a.sends > 1),
            "lost": len(lost), "lost_devices": lost[:20],
            "undescribed": sum(1 for s in states.values() if s is None),
            "decided_twice": len(twice), "decided_twice_ids": [a.id for a in twice[:20]],
            "redecided_before_ack": len(redecided),
            "missing_effects": len(missing), "missing_effects_ids": [a.id for a in missing[:20]],
            "resume_p99_s": round(resume_p99, 2), "resume_from_loss_p99_s": round(raw_p99, 2),
            "resume_p99_never_abandoned_s": round(percentile(smooth, 0.99), 2),
            "resume_max_s": round(max(resume + [float("inf")] * len(never)), 2), "never_resumed": len(never),
            "before_per_s": round(before_rate, 1), "after_per_s": round(after_rate, 1),
            "recovered": round(after_rate / share, 2) if share > 0 else 0.0,
        }
        with open(os.path.join(arguments.folder, "acked-ids"), "w") as handle:
            handle.writelines(f"{a.id}\n" for a in acked)
        with open(os.path.join(arguments.folder, "result.json"), "w") as handle:
            json.dump(result, handle)
        return result


def percentile(values, fraction):
    if not values:
        return float("inf")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--frontends", required=True, help="the buses' frontends, comma-separated")
    parser.add_argument("--backends", required=True, help="the buses' backends, comma-separated")
    parser.add_argument("--keys", required=True, help="the folder `gateway keys init` wrote")
    parser.add_argument("--folder", required=True, help="where `running`, `lost-at` and `result.json` are")
    parser.add_argument("--devices", type=int, default=1000)
    parser.add_argument("--prefix", default="d")
    parser.add_argument("--window", type=int, default=64)
    parser.add_argument("--retry-ms", type=int, default=300)
    parser.add_argument("--deadline", type=float, default=10.0, help="seconds an action is sent again (twice the gateway's default timeout)")
    parser.add_argument("--before", type=float, default=15.0, help="seconds of load before `running`")
    parser.add_argument("--after", type=float, default=25.0, help="seconds of load after the loss")
    parser.add_argument("--wait-loss", type=float, default=120.0, help="seconds to wait for `lost-at`")
    parser.add_argument("--ttl", type=float, default=3.0, help="the lease TTL (for the settling time)")
    parser.add_argument("--instances", type=int, default=3, help="instances of each service before the loss")
    parser.add_argument("--survivors", type=int, default=2, help="instances of each service after it")
    result = Load(parser.parse_args()).run()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
