"""The client against the running stack (the plugin's fixtures)."""
import json
import os
import secrets
import time

import pytest
import zmq

from monsterbus import Client, NoAnswer, Stack, contract


def test_every_answer_carries_the_actions_id_and_trace_and_comes_to_this_client(monster_client):
    phone = monster_client.device("py-live-phone", "iphone")
    outcome = phone.tap("add")
    trace = outcome.action["traceparent"].split("-")[1]
    assert outcome.messages and all(m.correlation_id == outcome.action["id"] for m in outcome.messages)
    assert all(m.traceparent.split("-")[1] == trace for m in outcome.messages)
    assert outcome.presented.presentation.buttons == ["Cancel", "Photo", "Audio"]
    assert phone.tap("cancel").dismissed.buttonIndex == 0


def test_an_action_waits_for_the_service_it_was_passed_to(monster_client):
    pad = monster_client.device("py-live-pad", "ipad")
    shown = pad.tap("weapon")
    # presentation-policy passes the tap on to input-handling (input.tap): its answer is in.
    assert shown.first("input.shown").input.view == "weapon-picker"
    turned = pad.rotate("landscape")
    # layout.changed is read by input-handling, which shows the picker again at the new width.
    assert turned.layout.orientation == "landscape"
    assert turned.first("input.shown").input.width == 1024


def test_a_describe_gathers_every_services_part(monster_client):
    state = monster_client.device("py-live-describe", "ipad").describe()
    assert state.result == "reported"
    assert {"layout.state", "input.state", "roster.snapshot"} <= set(state.types)


def test_one_clients_answers_do_not_reach_another(monster_bus, monster_client):
    with monster_bus.client() as other:
        other.wait_until_answering()
        mine = monster_client.device("py-live-mine", "iphone").tap("add")
        # presentation-policy published every answer to that tap before it reads this ping, and
        # the bus keeps one publisher's order: had the answers come to `other`, they would come
        # before presentation-policy's pong.
        ping = other.maker.make("sys.ping", {}, reply_to=other.address, new_trace=False)
        other.send(ping)
        deadline = time.monotonic() + 10
        seen = []
        while True:
            message = other.receive(deadline)
            assert message is not None, "no pong from presentation-policy"
            if message.type == "sys.pong" and message.correlation_id == ping["id"] and message.service == "presentation-policy":
                break
            seen.append(message)
        assert [m for m in seen if m.correlation_id == mine.action["id"]] == []


def test_without_the_keys_a_client_is_not_answered_on_curve(monster_bus):
    if "BUS_KEYS_DIR" not in monster_bus.environment:
        pytest.skip("the stack is not on CURVE")
    plain = {name: value for name, value in monster_bus.environment.items() if name in ("BUS_FRONTEND", "BUS_BACKEND")}
    with Client(environment=plain) as stranger:
        with pytest.raises(NoAnswer, match="plaintext"):
            stranger.wait_until_answering(timeout=1.0)


def reordered_and_padded(value):
    """`value` as JSON with every object's members in reverse order and whitespace around every
    token (spaces, tabs, newlines, carriage returns): the same message to any JSON reader."""
    def reverse(node):
        if isinstance(node, dict):
            return {key: reverse(node[key]) for key in reversed(list(node))}
        if isinstance(node, list):
            return [reverse(item) for item in node]
        return node
    text = json.dumps(reverse(value), ensure_ascii=False, indent="\t", separators=(" ,\r\n", " :  "))
    return ("\n \t" + text + " \r\n").encode("utf-8")


def test_a_header_in_any_order_and_spacing_is_keyed_and_answered_as_any_other():
    # The bus reads a device request's device, and a tap's element, to write its topic's key
    # (`type/OWNER/BUCKET`). A stack in plaintext of this test's own lets a watcher subscribe to
    # the requests the bus forwards and read the key it wrote, for a header written in order and
    # for one with `device` after `body`, `type` last and every token padded.
    binaries = os.environ.get("MONSTERBUS_BIN")
    if not binaries:
        pytest.skip("needs MONSTERBUS_BIN, the folder of the binaries (Scripts/python-client sets it)")
    stack = Stack.start(binaries, curve=False)
    context = zmq.Context()
    watcher = context.socket(zmq.SUB)
    try:
        watcher.linger = 0
        for prefix in (b"device.tap/", b"device.interaction/", b"sys.pong"):
            watcher.setsockopt(zmq.SUBSCRIBE, prefix)
        watcher.connect(stack.environment["BUS_BACKEND"])
        with stack.client() as client:
            plain = client.send
            reordered = lambda envelope: client._pub.send_multipart([envelope["type"].encode("utf-8"), reordered_and_padded(envelope)])
            # The watcher hears a pong once its subscriptions are in place at the bus.
            deadline = time.monotonic() + 10
            while not watcher.poll(50):
                assert time.monotonic() < deadline, "the watcher heard no pong"
                plain(client.maker.make("sys.ping", {}, reply_to=client.address, new_trace=False))
            for name, send in (("py-keyed-in-order", plain), ("py-keyed-reordered", reordered)):
                client.send = send
                pad = client.device(name, "ipad")
                assert pad.tap("weapon").first("input.shown").input.view == "weapon-picker"
                assert pad.interaction("close", False).first("interaction.changed")
                # The bus sent each request on before its answers: they are on their way, if not in.
                keys, deadline = [], time.monotonic() + 10
                while len(keys) < 2 and watcher.poll(max(1, int((deadline - time.monotonic()) * 1000))):
                    topic = watcher.recv_multipart()[0].decode("utf-8")
                    if topic.startswith("device."):
                        keys.append(topic)
                # `weapon` is the app's button, `close` the picker's (Routing.owners).
                bucket = contract.bucket(name)
                assert keys == [f"device.tap/presentation-policy/{bucket}", f"device.interaction/input-handling/{bucket}"]
    finally:
        context.destroy(linger=0)
        stack.stop()


def test_a_retrying_client_sends_an_action_nobody_answered_again_with_the_same_id(monster_bus):
    with monster_bus.client(device_suffix="-" + secrets.token_hex(4), retry=0.2) as client:
        phone = client.device("py-retry-phone", "iphone")
        phone.describe()
        sent, send = [], client.send

        def losing_the_first_tap(envelope):
            sent.append(envelope["id"])
            if envelope["type"] == "device.tap" and sent.count(envelope["id"]) == 1:
                return  # lost on the way
            send(envelope)

        client.send = losing_the_first_tap
        outcome = phone.tap("add")
        assert outcome.presented.presentation.buttons == ["Cancel", "Photo", "Audio"]
        assert sent.count(outcome.action["id"]) == 2
        # Without retries, the same loss is an action nobody answered.
        client.retry = None
        with pytest.raises(NoAnswer, match="still waiting for an acknowledgement from presentation-policy"):
            phone.act("device.tap", {"element": "cancel"}, timeout=1)
