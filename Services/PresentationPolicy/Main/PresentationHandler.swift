import BusKit
import MonsterKit
import PresentationCore

/// Connects `PresentationCore` to the bus: device actions in, its effects out.
struct PresentationHandler: ServiceHandler {
    var core = PresentationCore()

    var subscriptions: [String] { ["device."] }

    func accepts(_ type: MessageType) -> Bool { type.isDeviceAction }

    mutating func handle(_ envelope: Envelope) -> Reply {
        Reply(core.handle(device: envelope.device, action: envelope.body))
    }
}
