"""An action is complete when every acknowledgement and every message they list has come."""
from monsterbus import ActionTracker, Message, Outcome


def message(identifier, message_type, service, body, correlation="a"):
    return Message({"type": message_type, "id": identifier, "correlationId": correlation, "service": service, "body": body})


def ack(identifier, service, handled, emitted=(), forwarded=(), duplicate=False):
    return message(identifier, "ack", service, {"handled": "x", "handledId": handled, "emitted": list(emitted),
                                               "forwarded": [{"id": i, "service": s} for i, s in forwarded], "duplicate": duplicate})


def test_it_waits_for_what_the_acknowledgements_list_and_the_services_passed_to():
    tracker = ActionTracker("a", ["presentation-policy"])
    assert not tracker.complete
    assert tracker.observe(ack("k1", "presentation-policy", "a", emitted=["t1", "l1"], forwarded=[("t1", "input-handling")]))
    assert tracker.first_hop_answered and not tracker.complete
    assert "an acknowledgement from input-handling" in tracker.awaiting
    tracker.observe(message("t1", "input.tap", "presentation-policy", {}))
    tracker.observe(message("l1", "layout.changed", "presentation-policy", {}))
    # input-handling reads layout.changed: its acknowledgement of it is awaited too.
    assert not tracker.complete
    tracker.observe(ack("k2", "input-handling", "t1", emitted=["s1"]))
    tracker.observe(ack("k3", "input-handling", "l1"))
    assert not tracker.complete
    tracker.observe(message("s1", "input.shown", "input-handling", {}))
    assert tracker.complete
    assert [m.id for m in tracker.received] == ["k1", "t1", "l1", "k2", "k3", "s1"]


def test_an_early_acknowledgement_counts_and_others_are_ignored():
    tracker = ActionTracker("a", ["presentation-policy"])
    # input-handling's ack of the forwarded message arrives before the ack that forwards it.
    tracker.observe(ack("k2", "input-handling", "t1"))
    assert not tracker.observe(message("x", "presentation.presented", "presentation-policy", {}, correlation="other"))
    assert not tracker.observe(message("a", "device.tap", "python-client", {}))
    tracker.observe(ack("k1", "presentation-policy", "a", forwarded=[("t1", "input-handling")]))
    assert tracker.complete
    assert not tracker.observe(ack("k1", "presentation-policy", "a"))


def test_a_duplicates_acknowledgement_lists_nothing_to_wait_for():
    tracker = ActionTracker("a", ["roster"])
    tracker.observe(ack("k1", "roster", "a", emitted=["never-sent-again"], duplicate=True))
    assert tracker.complete


def test_the_outcome_gives_typed_access_and_the_gateways_verdict():
    action = {"type": "device.tap", "id": "a"}
    refused = Outcome(action, [message("e", "error", "presentation-policy", {"code": "modal-alert", "message": "an alert is up"})])
    assert refused.result == "refused" and refused.errors[0].code == "modal-alert"
    unchanged = Outcome(action, [message("u", "action.unchanged", "presentation-policy", {"reason": "empty-space"}),
                                 ack("k", "presentation-policy", "a")])
    assert unchanged.result == "unchanged" and unchanged.types == ["action.unchanged"]
    try:
        unchanged.presented
    except LookupError as error:
        assert "no presentation.presented message; the action caused action.unchanged" in str(error)
    else:
        raise AssertionError("presented did not raise")


def test_retrying_a_refusal_to_send_it_again_is_no_answer():
    for code in ("not-owner", "fenced"):
        refusal = [message("e1", "error", "presentation-policy", {"code": code, "message": "send it again", "offendingId": "a"}),
                   ack("k1", "presentation-policy", "a", emitted=["e1"])]
        retrying = ActionTracker("a", ["presentation-policy"], retrying=True)
        assert [retrying.observe(m) for m in refusal] == [False, False]
        assert not retrying.complete and retrying.received == []
        assert retrying.last_set_aside.body.get("code") == code
        retrying.observe(message("u1", "action.unchanged", "presentation-policy", {"reason": "same-orientation"}))
        retrying.observe(ack("k2", "presentation-policy", "a", emitted=["u1"]))
        assert retrying.complete and [m.id for m in retrying.received] == ["u1", "k2"]
        # Not sending again, the refusal is the answer.
        once = ActionTracker("a", ["presentation-policy"])
        assert [once.observe(m) for m in refusal] == [True, True] and once.complete
    other = ActionTracker("a", ["presentation-policy"], retrying=True)
    other.observe(message("e1", "error", "presentation-policy", {"code": "modal-alert", "message": "an alert is up"}))
    other.observe(ack("k1", "presentation-policy", "a", emitted=["e1"]))
    assert other.complete


def test_what_no_acknowledgement_lists_is_not_awaited_where_it_is_read():
    # A layout change of a decision whose acknowledgement never came (its owner died; the heir
    # decided again, with new messages).
    tracker = ActionTracker("a", ["presentation-policy"])
    tracker.observe(message("lost", "layout.changed", "presentation-policy", {}))
    tracker.observe(message("l1", "layout.changed", "presentation-policy", {}))
    tracker.observe(ack("k1", "presentation-policy", "a", emitted=["l1"]))
    assert not tracker.complete and tracker.awaiting == "an acknowledgement from input-handling"
    tracker.observe(ack("k2", "input-handling", "l1"))
    assert tracker.complete


def test_a_later_acknowledgement_listing_other_messages_takes_the_place_of_the_first():
    # A standby may list ids that never come; the owner's acknowledgement of a repeat lists the right ones.
    tracker = ActionTracker("a", ["presentation-policy"], retrying=True)
    tracker.observe(ack("s1", "presentation-policy", "a", emitted=["lost1", "lost2"]))
    assert tracker.awaiting == "2 message(s) the services say they published"
    # A refusal to send it again and its acknowledgement stay set aside.
    tracker.observe(message("e1", "error", "presentation-policy", {"code": "not-owner", "message": "send it again", "offendingId": "a"}))
    tracker.observe(ack("e2", "presentation-policy", "a", emitted=["e1"]))
    assert tracker.awaiting == "2 message(s) the services say they published"
    # Come before the acknowledgement that lists it, it counts as come.
    tracker.observe(message("p1", "presentation.presented", "presentation-policy", {}))
    tracker.observe(ack("p2", "presentation-policy", "a", emitted=["p1", "p3"]))
    assert tracker.awaiting == "1 message(s) the services say they published"
    tracker.observe(message("p3", "presentation.presented", "presentation-policy", {}))
    assert tracker.complete


def test_a_later_acknowledgement_listing_the_same_messages_changes_nothing():
    tracker = ActionTracker("a", ["presentation-policy"])
    tracker.observe(ack("s1", "presentation-policy", "a", emitted=["p1", "p2"]))
    tracker.observe(message("p2", "presentation.presented", "presentation-policy", {}))
    tracker.observe(ack("p3", "presentation-policy", "a", emitted=["p2", "p1"], duplicate=True))
    assert not tracker.complete and tracker.awaiting == "1 message(s) the services say they published"
    # Nor when both come before the acknowledgement that makes them awaited: the first counts.
    early = ActionTracker("a", ["presentation-policy"])
    early.observe(ack("i2", "input-handling", "t1", emitted=["i1"]))
    early.observe(ack("i3", "input-handling", "t1", emitted=["i1"], duplicate=True))
    early.observe(message("t1", "input.tap", "presentation-policy", {}))
    early.observe(ack("p2", "presentation-policy", "a", emitted=["t1"], forwarded=[("t1", "input-handling")]))
    assert not early.complete and early.awaiting == "1 message(s) the services say they published"
    early.observe(message("i1", "input.shown", "input-handling", {}))
    assert early.complete


def test_a_later_duplicate_listing_other_messages_takes_the_place_and_awaits_none_of_them():
    tracker = ActionTracker("a", ["presentation-policy"])
    tracker.observe(ack("s1", "presentation-policy", "a", emitted=["lost"]))
    tracker.observe(message("l1", "layout.changed", "presentation-policy", {}))
    tracker.observe(ack("p3", "presentation-policy", "a", emitted=["l1", "p2"], duplicate=True))
    # What it lists that another service reads is awaited there all the same.
    assert not tracker.complete and tracker.awaiting == "an acknowledgement from input-handling"
    tracker.observe(ack("i1", "input-handling", "l1"))
    assert tracker.complete


def test_a_replaced_acknowledgements_forwarded_hop_is_no_longer_awaited():
    tracker = ActionTracker("a", ["presentation-policy"])
    tracker.observe(ack("s1", "presentation-policy", "a", emitted=["t1"], forwarded=[("t1", "input-handling")]))
    tracker.observe(message("t1", "input.tap", "presentation-policy", {}))
    assert tracker.awaiting == "an acknowledgement from input-handling"
    tracker.observe(ack("i1", "input-handling", "t1", emitted=["lost"]))
    # The new one's hop counts an acknowledgement that came before it.
    tracker.observe(ack("i2", "input-handling", "t2"))
    tracker.observe(message("t2", "input.tap", "presentation-policy", {}))
    assert tracker.awaiting == "1 message(s) the services say they published"
    tracker.observe(ack("p2", "presentation-policy", "a", emitted=["t2"], forwarded=[("t2", "input-handling")]))
    assert tracker.complete
    hop = ActionTracker("a", ["presentation-policy"])
    hop.observe(ack("s1", "presentation-policy", "a", emitted=["t1"], forwarded=[("t1", "input-handling")]))
    hop.observe(message("t1", "input.tap", "presentation-policy", {}))
    hop.observe(message("p1", "presentation.presented", "presentation-policy", {}))
    hop.observe(ack("p2", "presentation-policy", "a", emitted=["p1"]))
    assert hop.complete


def test_a_layout_only_a_replaced_acknowledgement_listed_is_no_longer_awaited_where_it_is_read():
    tracker = ActionTracker("a", ["presentation-policy"])
    tracker.observe(message("l1", "layout.changed", "presentation-policy", {}))
    tracker.observe(ack("s1", "presentation-policy", "a", emitted=["l1"]))
    assert tracker.awaiting == "an acknowledgement from input-handling"
    tracker.observe(message("p1", "presentation.presented", "presentation-policy", {}))
    tracker.observe(ack("p2", "presentation-policy", "a", emitted=["p1"]))
    assert tracker.complete
