/// Every message type of the vocabulary. The raw value is the envelope's `type` and the topic
/// frame, so subscribers filter by prefix (`device.`, `presentation.`, `roster.`, …).
public enum MessageType: String, FieldCase, Sendable, CaseIterable {
    case tap = "device.tap"
    case rotate = "device.rotate"
    case resize = "device.resize"
    case select = "device.select"
    case interaction = "device.interaction"
    case describe = "device.describe"
    case forget = "device.forget"
    case forgotten = "device.forgotten"
    case presented = "presentation.presented"
    case hidden = "presentation.hidden"
    case dismissed = "presentation.dismissed"
    case moved = "presentation.moved"
    case interactionChanged = "interaction.changed"
    case unchanged = "action.unchanged"
    case outcome = "action.outcome"
    case inputPassed = "input.passed"
    case mediaAddRequested = "media.add.requested"
    case colorSelected = "color.selected"
    case deviceLayout = "layout.changed"
    case deviceState = "layout.state"
    case inputTap = "input.tap"
    case inputShown = "input.shown"
    case inputHidden = "input.hidden"
    case weaponSelected = "input.weapon.selected"
    case inputState = "input.state"
    case snapshotRequest = "roster.snapshot.request"
    case snapshot = "roster.snapshot"
    case rosterSelect = "roster.select.request"
    case selection = "roster.selection"
    case monsterUpdated = "roster.monster.updated"
    case backupRequest = "roster.backup.request"
    case backup = "roster.backup"
    case ping = "sys.ping"
    case pong = "sys.pong"
    case heartbeat = "sys.heartbeat"
    case statusRequest = "sys.status.request"
    case statusReport = "sys.status"
    case lossReport = "sys.loss"
    case ack = "ack"
    case error = "error"
    case replica = "shard.replica"

    /// True for the device actions a gateway sends to presentation-policy (topic prefix `device.`;
    /// `device.forget` goes to every service and `device.forgotten` is their answer).
    public var isDeviceAction: Bool { rawValue.hasPrefix("device.") && self != .forget && self != .forgotten }

    /// Whether its receiver orders it by a sequence it carries (a device's update between
    /// instances, `StandbyCopies`) rather than by its id: never sent again with the same id, and
    /// worth taking however late, it is neither checked nor remembered by the delivery window.
    public var isOrderedBySequence: Bool { self == .replica }

}
