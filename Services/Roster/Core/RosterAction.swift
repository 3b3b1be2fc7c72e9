import Domain

/// What the roster core is asked to decide, built from an envelope's body by its handler (which
/// handles `roster.backup.request` itself); the core switches over it exhaustively.
public enum RosterAction: Sendable, Equatable {
    /// `roster.snapshot.request`: the whole roster, with the device's selection.
    case snapshotRequest(SnapshotRequest)
    /// `device.describe`: the roster's part of a device (its snapshot, with the device's selection).
    case describe(Describe)
    /// `roster.select.request`: the device shows another monster.
    case rosterSelect(RosterSelect)
    /// `input.weapon.selected`: the selected monster's weapon.
    case weaponSelected(WeaponSelected)
    /// `color.selected`: the selected monster's name colour.
    case colorSelected(ColorSelected)
    /// `device.forget`: the device's selection goes.
    case forget(Forget)

    /// The message types these actions come as: what the service subscribes to and dispatches
    /// (with `roster.backup.request`, which its handler answers).
    public static let types: [MessageType] = [.snapshotRequest, .describe, .rosterSelect, .weaponSelected, .colorSelected, .forget]

    /// The action `body` carries; `nil` for a message the roster core does not decide.
    public init?(_ body: Body) {
        switch body {
        case .snapshotRequest(let request): self = .snapshotRequest(request)
        case .describe(let describe): self = .describe(describe)
        case .rosterSelect(let select): self = .rosterSelect(select)
        case .weaponSelected(let picked): self = .weaponSelected(picked)
        case .colorSelected(let picked): self = .colorSelected(picked)
        case .forget(let forget): self = .forget(forget)
        // Every other message: listed, so that a new type is a decision here.
        case .tap, .rotate, .resize, .select, .interaction, .forgotten, .presented, .hidden,
             .dismissed, .moved, .interactionChanged, .unchanged, .outcome, .inputPassed,
             .mediaAddRequested, .deviceLayout, .deviceState, .inputTap, .inputShown, .inputHidden,
             .inputState, .snapshot, .selection, .monsterUpdated, .backupRequest, .backup, .ping,
             .pong, .heartbeat, .statusRequest, .statusReport, .lossReport, .ack, .error, .replica:
            return nil
        }
    }
}
