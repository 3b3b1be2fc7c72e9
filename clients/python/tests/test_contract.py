"""The client's tables against the contract: docs/asyncapi.yaml, when the tests run from the repository."""
import os
import re

import pytest

from monsterbus import bucket, first_hop, subscriptions
from monsterbus.contract import ADDRESSING, FIRST_HOP, STYLES
from monsterbus.envelope import HEADER

DOCUMENT = os.environ.get("MONSTERBUS_CONTRACT") or os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "asyncapi.yaml")


def document():
    """The contract's text (read as `gateway contract` writes it: the package needs no YAML reader)."""
    if not os.path.exists(DOCUMENT):
        pytest.skip(f"no contract at {DOCUMENT} (set MONSTERBUS_CONTRACT)")
    with open(DOCUMENT, encoding="utf-8") as handle:
        return handle.read()


def channel_addresses():
    """Each channel's address in the document (its `channels:` section)."""
    section = document().split("\nchannels:\n", 1)[1].split("\noperations:\n", 1)[0]
    return re.findall(r'^    address: "([^"]+)"$', section, flags=re.MULTILINE)


def envelope_members():
    """The members of the document's Envelope schema, in its order."""
    schema = document().split("\n    Envelope:\n", 1)[1]
    properties = schema.split("\n      properties:\n", 1)[1].split("\n      required:\n", 1)[0]
    return re.findall(r"^        ([A-Za-z]+):$", properties, flags=re.MULTILINE)


def test_every_type_of_the_contract_is_addressed_as_the_contract_says():
    expected = {}
    for address in channel_addresses():
        message_type, _, key = address.partition("/")
        expected[message_type] = {"": "broadcast", "{replyTo}": "client", "{style}/{replyTo}": "styled",
                                  "{service}/{instance}": "instance"}.get(key, "device")
    assert ADDRESSING == expected


def test_an_envelope_is_written_in_the_order_of_the_contract():
    assert list(HEADER) == envelope_members()


def test_a_client_subscribes_to_its_own_answers_only():
    topics = subscriptions("0123456789abcdef")
    assert "ack/0123456789abcdef" in topics
    assert {f"presentation.presented/{style}/0123456789abcdef" for style in STYLES} <= set(topics)
    assert "roster.snapshot" in topics and "input.tap" in topics
    # Not other clients' actions, nor pings and heartbeats, nor everything.
    actions = {name for name in FIRST_HOP if name.startswith("device.")}
    assert not any(topic.split("/")[0] in actions or topic.startswith(("sys.ping", "sys.heartbeat")) for topic in topics)
    assert "device.forgotten/0123456789abcdef" in topics
    assert "" not in topics and "ack" not in topics


def test_buckets_are_fnv1a_modulo_256_in_two_hex_digits():
    # FNV-1a (32 bits) of "" is 0x811c9dc5, of "a" 0xe40c292c.
    assert bucket("") == "c5"
    assert bucket("a") == "2c"
    assert len(bucket("iPad de Zoé")) == 2


def test_a_tap_goes_by_what_it_touches():
    assert first_hop("device.tap", {"element": "add"}) == ["presentation-policy"]
    assert first_hop("device.tap", {"element": "blowgun"}) == ["input-handling"]
    assert first_hop("device.tap", {"point": {"x": 1, "y": 2}}) == ["input-handling"]
    assert first_hop("device.interaction", {"element": "close", "enabled": False}) == ["input-handling"]
    assert first_hop("device.describe", {}) == ["presentation-policy", "input-handling", "roster"]
    assert first_hop("sys.status", {}) is None
