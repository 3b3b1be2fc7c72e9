"""What the contract (docs/asyncapi.yaml) says about topics, and what the services' routing says
about who answers an action (Shared/Wire/Routing.swift): the tables this client works from.
The package's tests check the addressing against the document."""

# How each message type is addressed on the bus: its topic frame is the type, then `/` and a key.
#   "client": the key is the `replyTo` of the action that caused it (answers to one client);
#   "styled": the presentation's style, then `/` and the `replyTo`;
#   "device": the device's bucket (requests to the services that own devices);
#   "broadcast": the type alone;
#   "instance": the sending service, then `/` and the instance it is for (between the instances
#   of a sharded service; no client hears it).
ADDRESSING = {
    "device.tap": "device", "device.rotate": "device", "device.resize": "device", "device.select": "device",
    "device.interaction": "device", "device.describe": "device", "device.forget": "device", "input.tap": "device",
    "device.forgotten": "client", "presentation.hidden": "client", "presentation.moved": "client",
    "interaction.changed": "client", "action.unchanged": "client", "action.outcome": "client",
    "input.passed": "client", "media.add.requested": "client", "color.selected": "client",
    "layout.changed": "client", "layout.state": "client", "input.shown": "client", "input.hidden": "client",
    "input.weapon.selected": "client", "input.state": "client", "roster.snapshot.request": "client",
    "roster.select.request": "client", "roster.backup": "client", "sys.pong": "client", "ack": "client",
    "error": "client",
    "presentation.presented": "styled", "presentation.dismissed": "styled",
    "roster.snapshot": "broadcast", "roster.selection": "broadcast", "roster.monster.updated": "broadcast",
    "roster.backup.request": "broadcast", "sys.ping": "broadcast", "sys.heartbeat": "broadcast",
    "sys.status.request": "broadcast", "sys.status": "broadcast", "sys.loss": "broadcast",
    "shard.replica": "instance",
}

# The presentation styles a "styled" topic is keyed by.
STYLES = ("popover", "alert")

# What a client leaves out of its subscriptions: other clients' requests, pings and heartbeats.
NOT_SUBSCRIBED = {"roster.backup.request", "sys.ping", "sys.heartbeat", "sys.status.request", "sys.loss"}

PRESENTATION_POLICY = "presentation-policy"
ROSTER = "roster"
INPUT_HANDLING = "input-handling"
SERVICES = (PRESENTATION_POLICY, ROSTER, INPUT_HANDLING)

# The services that handle each action a client sends directly (its first hop).
FIRST_HOP = {
    "device.tap": [PRESENTATION_POLICY],
    "device.rotate": [PRESENTATION_POLICY],
    "device.resize": [PRESENTATION_POLICY],
    "device.select": [PRESENTATION_POLICY],
    "device.interaction": [PRESENTATION_POLICY],
    "device.describe": [PRESENTATION_POLICY, INPUT_HANDLING, ROSTER],
    "device.forget": list(SERVICES),
    "roster.snapshot.request": [ROSTER],
    "roster.backup.request": [ROSTER],
}

# The weapon picker's buttons: the keyboard's window (input-handling's) is above the app's, so a
# tap on one of them, or at a point, goes to input-handling first.
WEAPON_PICKER_BUTTONS = ("blowgun", "fire", "ninja-star", "smoke", "sword", "close")

# Messages another service also handles and acknowledges: input-handling keeps the keyboard of
# every layout.changed.
READERS = {"layout.changed": [INPUT_HANDLING]}

# Refusals that only say to send the action again, with the same id (Shared/Domain/Codes.swift,
# `RefusalCode.sendAgain`): an instance that does not decide it now, and nothing was decided.
SEND_AGAIN = ("fenced", "not-owner")

# The services that refuse a device they were never given the profile of.
NEEDS_PROFILE = (PRESENTATION_POLICY,)

# The device profiles the gateway has built in (`--profile NAME`).
PROFILES = {
    "ipad": {"idiom": "pad", "screen": {"width": 768, "height": 1024}, "os": "17.0",
             "orientation": "portrait", "widthClass": "regular"},
    "iphone": {"idiom": "phone", "screen": {"width": 375, "height": 667}, "os": "17.0",
               "orientation": "portrait", "widthClass": "compact"},
    "ipad-legacy": {"idiom": "pad", "screen": {"width": 768, "height": 1024}, "os": "3.1.3",
                    "orientation": "portrait", "widthClass": "regular"},
}


def first_hop(message_type, body):
    """The services that handle an action directly: a tap's or an interaction change's owner (what
    it touches), else those of its type; None for a type no client sends."""
    if message_type == "device.tap":
        touches_input = body.get("point") is not None or body.get("element") in WEAPON_PICKER_BUTTONS
        return [INPUT_HANDLING if touches_input else PRESENTATION_POLICY]
    if message_type == "device.interaction":
        return [INPUT_HANDLING if body.get("element") in WEAPON_PICKER_BUTTONS else PRESENTATION_POLICY]
    hop = FIRST_HOP.get(message_type)
    return list(hop) if hop is not None else None


def subscriptions(address):
    """What a client with `address` subscribes to, to hear everything its actions cause and as
    little else as it can: the answers on its address, the broadcast state, and the requests one
    service passes on to another (their acknowledgements list them)."""
    topics = []
    for message_type, addressing in ADDRESSING.items():
        if addressing == "client":
            topics.append(f"{message_type}/{address}")
        elif addressing == "styled":
            topics.extend(f"{message_type}/{style}/{address}" for style in STYLES)
        elif addressing == "broadcast" and message_type not in NOT_SUBSCRIBED:
            topics.append(message_type)
        elif addressing == "device" and not message_type.startswith("device."):
            topics.append(message_type)
    return topics


def bucket(device):
    """The device's bucket: FNV-1a (32 bits) of its UTF-8 bytes, modulo 256, as two hex digits."""
    value = 2166136261
    for byte in device.encode("utf-8"):
        value ^= byte
        value = (value * 16777619) & 0xFFFFFFFF
    return f"{value % 256:02x}"
