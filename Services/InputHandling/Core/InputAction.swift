import Domain

/// What input-handling is asked to do, built from an envelope's body by its handler; the core
/// switches over it exhaustively.
public enum InputAction: Sendable, Equatable {
    /// `device.tap` straight from a client (`Routing.firstHop(of:)`): a button of an input view
    /// by name, or a point, which the keyboard's window (above the app's) hit-tests first.
    case tap(Tap)
    /// `input.tap`: a first responder (`weapon`, `notes`) the app's window passed on.
    case inputTap(InputTap)
    /// `device.interaction` on a button of an input view.
    case interaction(Interaction)
    /// `presentation.presented`: read for whether a modal alert is up.
    case presented(Presented)
    /// `presentation.dismissed`: read for whether a modal alert is up.
    case dismissed(Dismissed)
    /// `layout.changed`: presentation-policy's new layout, whose keyboard input-handling keeps.
    case layout(DeviceLayout)
    /// `device.describe`: the device's first responder and input view.
    case describe(Describe)

    /// The message types these actions come as: what the service subscribes to and dispatches.
    public static let types: [MessageType] = [.tap, .inputTap, .interaction, .presented, .dismissed, .deviceLayout, .describe]

    /// The action `body` carries; `nil` for a message input-handling does not handle.
    public init?(_ body: Body) {
        switch body {
        case .tap(let tap): self = .tap(tap)
        case .inputTap(let tap): self = .inputTap(tap)
        case .interaction(let interaction): self = .interaction(interaction)
        case .presented(let presented): self = .presented(presented)
        case .dismissed(let dismissed): self = .dismissed(dismissed)
        case .deviceLayout(let layout): self = .layout(layout)
        case .describe(let describe): self = .describe(describe)
        // Every other message: listed, so that a new type is a decision here.
        case .rotate, .resize, .select, .forget, .forgotten, .hidden, .moved, .interactionChanged,
             .unchanged, .outcome, .inputPassed, .mediaAddRequested, .colorSelected, .deviceState,
             .inputShown, .inputHidden, .weaponSelected, .inputState, .snapshotRequest, .snapshot,
             .rosterSelect, .selection, .monsterUpdated, .backupRequest, .backup, .ping, .pong,
             .heartbeat, .statusRequest, .statusReport, .lossReport, .ack, .error, .replica:
            return nil
        }
    }
}
