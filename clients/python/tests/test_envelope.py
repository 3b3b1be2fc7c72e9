"""Envelopes made and read."""
import json
import re

import pytest

from monsterbus import EnvelopeMaker, Fields, Message
from monsterbus.envelope import HEADER


def test_an_action_has_every_required_field_a_fresh_id_and_trace_and_causes_itself():
    maker = EnvelopeMaker("python-client")
    first = maker.make("device.tap", {"element": "add"}, device="d", reply_to="0123456789abcdef")
    second = maker.make("device.tap", {"element": "add"}, device="d")
    for field in ("v", "type", "id", "correlationId", "service", "seq", "time", "body"):
        assert field in first
    assert first["v"] == 1 and first["correlationId"] == first["id"] and first["replyTo"] == "0123456789abcdef"
    assert re.fullmatch(r"[0-9a-f]{16}-1", first["id"]) and second["seq"] == 2 and second["id"] != first["id"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", first["time"])
    assert re.fullmatch(r"00-[0-9a-f]{32}-[0-9a-f]{16}-01", first["traceparent"])
    assert first["traceparent"] != second["traceparent"]
    assert "replyTo" not in second
    # Written in the contract's order, whichever optional members are there.
    for envelope in (first, second, maker.make("sys.ping", {}, new_trace=False)):
        assert list(envelope) == [member for member in HEADER if member in envelope]


def test_fields_read_by_attribute_key_and_dotted_path_and_say_what_is_there():
    message = Message.decode(json.dumps({"type": "presentation.presented", "id": "i", "correlationId": "c", "service": "s",
                                         "body": {"presentation": {"style": "alert", "buttons": ["Cancel", "Photo"],
                                                                   "anchor": {"rect": {"x": 1}}}}}))
    assert message.body.presentation.style == "alert"
    assert message.body["presentation"]["buttons"] == ["Cancel", "Photo"]
    assert message.body.at("presentation.buttons.1") == "Photo"
    assert message.body.at("presentation.anchor.rect.x") == 1
    assert message.body.at("presentation.nothing", "absent") == "absent"
    assert isinstance(message.body.presentation.anchor, Fields)
    with pytest.raises(AttributeError, match="there are: anchor, buttons, style"):
        _ = message.body.presentation.frame


@pytest.mark.parametrize("payload", [b"[]", b'{"type": "x"}', b'{"body": {}}', b"not json"])
def test_what_is_not_an_envelope_is_refused(payload):
    with pytest.raises(ValueError):
        Message.decode(payload)
