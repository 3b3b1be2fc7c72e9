import BusKit
import MonsterKit
import PresentationCore

/// Connects `PresentationCore` to the bus: device actions in, its effects out.
struct PresentationHandler: ServiceHandler {
    var core = PresentationCore()

    /// Device actions, and taps the keyboard's window passed back to the app's.
    var subscriptions: [String] { ["device.", MessageType.inputPassed.rawValue] }

    func accepts(_ type: MessageType) -> Bool { type.isDeviceAction || type == .inputPassed }

    mutating func handle(_ envelope: Envelope) -> Reply {
        Reply(core.handle(device: envelope.device, action: envelope.body))
    }
}
