import BusKit
import InputCore
import MonsterKit

/// Connects `InputCore` to the bus.
struct InputHandler: ServiceHandler {
    var core = InputCore()

    var subscriptions: [String] {
        [MessageType.inputTap, .inputLayout, .inputDescribe].map(\.rawValue)
    }

    func accepts(_ type: MessageType) -> Bool {
        [.inputTap, .inputLayout, .inputDescribe].contains(type)
    }

    mutating func handle(_ envelope: Envelope) -> Reply {
        Reply(core.handle(device: envelope.device, body: envelope.body))
    }
}
