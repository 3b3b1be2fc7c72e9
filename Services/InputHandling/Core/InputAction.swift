import MonsterKit

/// What input-handling is asked to do, built from an envelope's body by its handler; the core
/// switches over it exhaustively.
public enum InputAction: Sendable, Equatable {
    /// `input.tap`: a first responder, an input view's button, or a point in the keyboard's window.
    case tap(InputTap)
    /// `input.layout`: the keyboard moved (rotation, resize).
    case layout(InputLayout)
    /// `input.describe`: the device's first responder and input view.
    case describe(InputDescribe)

    /// The message types these actions come as: what the service subscribes to and dispatches.
    public static let types: [MessageType] = [.inputTap, .inputLayout, .inputDescribe]

    /// The action `body` carries; `nil` for a message input-handling does not handle.
    public init?(_ body: Body) {
        switch body {
        case .inputTap(let tap): self = .tap(tap)
        case .inputLayout(let layout): self = .layout(layout)
        case .inputDescribe(let describe): self = .describe(describe)
        default: return nil
        }
    }

    /// The keyboard's metrics the action carries.
    var keyboard: KeyboardMetrics {
        switch self {
        case .tap(let tap): tap.keyboard
        case .layout(let layout): layout.keyboard
        case .describe(let describe): describe.keyboard
        }
    }
}
