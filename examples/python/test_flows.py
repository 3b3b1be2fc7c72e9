"""Flows of the tutorial app as a user tests them with pytest, on the Monster Bus test client:

    pip install ./clients/python
    MONSTERBUS_BIN=.build/debug pytest examples/python

The `monster_client` fixture (the client's pytest plugin) starts the bus and the services from
the binaries folder on CURVE, or uses the stack BUS_FRONTEND names, and stops what it started.
"""
import plus_flow
from monsterbus import PROFILES


def test_plus_on_an_iphone_is_an_alert_that_cancel_dismisses(monster_client):
    phone = monster_client.device("example-iphone", profile="iphone")
    alert = phone.tap("add").presented.presentation
    assert (alert.style, alert.message, alert.buttons) == ("alert", "Add…", ["Cancel", "Photo", "Audio"])
    dismissed = phone.tap("cancel")
    assert dismissed.dismissed.button == "Cancel"
    assert not dismissed.has("media.add.requested")


def test_plus_on_an_ipad_is_a_popover_and_photo_asks_for_a_photo(monster_client):
    pad = monster_client.device("example-ipad", profile="ipad")
    popover = pad.tap("add").presented.presentation
    assert popover.style == "popover" and popover.anchor.element == "add"
    photo = pad.tap("photo")
    assert photo.dismissed.reason == "button"
    assert photo.first("media.add.requested").kind == "photo"


def test_a_weapon_picked_on_the_picker_is_the_selected_monsters(monster_client):
    pad = monster_client.device("example-weapons", profile="ipad")
    assert pad.select("Mini-Tomato-Bot").first("roster.selection").monster.name == "Mini-Tomato-Bot"
    assert pad.tap("weapon").first("input.shown").input.buttons[-1] == "close"
    # Fire first, then Sword: the second is a change whatever the roster held before (it keeps
    # its weapons from one run to the next, and says nothing for a weapon the monster has).
    pad.tap("fire")
    pad.tap("weapon")
    picked = pad.tap("sword")
    assert picked.first("input.weapon.selected").weapon == "Sword"
    assert picked.first("roster.monster.updated").monster.weapon == "Sword"


def test_the_wide_side_of_split_view_is_regular_in_landscape_only(monster_client):
    pad = monster_client.device("example-split", profile=dict(PROFILES["ipad"], orientation="landscape"))
    layout = pad.resize("split-view-wide").layout
    assert (layout.widthClass, layout.window.width) == ("regular", 694)
    assert pad.tap("add").presented.presentation.style == "popover"
    turned = pad.rotate("portrait")
    assert (turned.layout.widthClass, turned.layout.window.width) == ("compact", 438)
    assert turned.dismissed.reason == "size-class"


def test_a_device_first_seen_by_the_roster_is_described_to_presentation_policy(monster_client):
    phone = monster_client.device("example-roster-first", profile="iphone")
    assert phone.act("device.tap", {"element": "blowgun"}).errors[0].code == "no-such-element"
    assert phone.tap("add").presented.presentation.style == "alert"


def test_the_plus_flow_script_runs_against_the_same_stack(monster_bus, monkeypatch, capsys):
    for name, value in monster_bus.environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("EXAMPLE_DEVICE", "example-script")
    assert plus_flow.main() == 0
    assert "example-script: alert dismissed by Cancel (index 0)" in capsys.readouterr().out
