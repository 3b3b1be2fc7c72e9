import Domain

/// What presentation-policy is asked to do, built from an envelope's body by its handler; the
/// core switches over it exhaustively.
public enum PresentationAction: Sendable, Equatable {
    // Taps on the app's window (`Taps`).
    /// `device.tap`: an element of the app's window, a presentation's button, or a point.
    case tap(Tap)
    /// `input.passed`: a tap at a point the keyboard's window passed back to the app's.
    case inputPassed(InputPassed)
    // The window itself (`Rotation`).
    /// `device.rotate`.
    case rotate(Rotate)
    /// `device.resize`: an iPad's window.
    case resize(Resize)
    // What the window shows.
    /// `device.select`: a monster of the roster list.
    case select(Select)
    /// `device.interaction`: a view's user interaction on or off.
    case interaction(Interaction)
    /// `device.describe`: the device's window and presentation.
    case describe(Describe)

    /// The message types these actions come as: what the service subscribes to and dispatches.
    public static let types: [MessageType] = [.tap, .inputPassed, .rotate, .resize, .select, .interaction, .describe]

    /// The action `body` carries; `nil` for a message presentation-policy does not handle.
    public init?(_ body: Body) {
        switch body {
        case .tap(let tap): self = .tap(tap)
        case .inputPassed(let passed): self = .inputPassed(passed)
        case .rotate(let rotate): self = .rotate(rotate)
        case .resize(let resize): self = .resize(resize)
        case .select(let select): self = .select(select)
        case .interaction(let interaction): self = .interaction(interaction)
        case .describe(let describe): self = .describe(describe)
        // Every other message: listed, so that a new type is a decision here.
        case .forget, .forgotten, .presented, .hidden, .dismissed, .moved, .interactionChanged,
             .unchanged, .outcome, .mediaAddRequested, .colorSelected, .deviceLayout, .deviceState,
             .inputTap, .inputShown, .inputHidden, .weaponSelected, .inputState, .snapshotRequest,
             .snapshot, .rosterSelect, .selection, .monsterUpdated, .backupRequest, .backup, .ping,
             .pong, .heartbeat, .statusRequest, .statusReport, .lossReport, .ack, .error, .replica:
            return nil
        }
    }

    /// The device's profile, where the action carries one (a device is created from it).
    var profile: DeviceProfile? {
        switch self {
        case .tap(let tap): tap.profile
        case .inputPassed(let passed): passed.profile
        case .rotate(let rotate): rotate.profile
        case .resize(let resize): resize.profile
        case .select(let select): select.profile
        case .interaction(let interaction): interaction.profile
        case .describe(let describe): describe.profile
        }
    }
}
