"""The client against the running stack (the plugin's fixtures)."""
import time

import pytest

from monsterbus import Client, NoAnswer


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
