import MonsterKit

/// What input-handling is asked to do, built from an envelope's body by its handler; the core
/// switches over it exhaustively.
public enum InputAction: Sendable, Equatable {
    /// `input.tap`: a first responder, an input view's button, or a point in the keyboard's window.
    case tap(InputTap)
    /// `layout.changed`: presentation-policy's new layout, whose keyboard input-handling keeps.
    case layout(DeviceLayout)
    /// `device.describe`: the device's first responder and input view.
    case describe(Describe)

    /// The message types these actions come as: what the service subscribes to and dispatches.
    public static let types: [MessageType] = [.inputTap, .deviceLayout, .describe]

    /// The action `body` carries; `nil` for a message input-handling does not handle.
    public init?(_ body: Body) {
        switch body {
        case .inputTap(let tap): self = .tap(tap)
        case .deviceLayout(let layout): self = .layout(layout)
        case .describe(let describe): self = .describe(describe)
        default: return nil
        }
    }
}
