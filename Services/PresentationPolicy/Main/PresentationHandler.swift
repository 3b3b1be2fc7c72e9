import BusKit
import MonsterKit
import PresentationCore

/// Connects `PresentationCore` to the bus: device actions in, its effects out; `device.forget`
/// and devices idle for longer than `DEVICE_IDLE_EXPIRY_SECONDS` drop a device's state.
struct PresentationHandler: ServiceHandler {
    var core = PresentationCore()
    var activity: DeviceActivity

    /// Every type handled: the core's actions, and `device.forget`.
    static let handled: [MessageType] = PresentationAction.types + [.forget]

    /// Device actions (the whole `device.` prefix, so a `device.*` type outside the vocabulary is
    /// answered `unknown-type`), and taps the keyboard's window passed back to the app's.
    var subscriptions: [String] { ["device.", MessageType.inputPassed.rawValue] }

    func accepts(_ type: MessageType) -> Bool { Self.handled.contains(type) }

    mutating func handle(_ envelope: Envelope) -> Reply {
        if case .forget = envelope.body {
            return .forgetting(envelope, service: MonsterBus.Service.presentationPolicy) { device in
                activity.remove(device)
                return core.forget(device)
            }
        }
        guard let action = PresentationAction(envelope.body) else {
            return Reply([.error(MessageError.Code.unknownType, "presentation-policy does not handle \(envelope.type.rawValue)")])
        }
        let effects = core.handle(device: envelope.device, action: action)
        if let device = envelope.device, core.devices[device] != nil { activity.touch(device, at: Timestamp.wallClock()) }
        return Reply(effects)
    }

    mutating func forgetIdleDevices(now: Double) -> [String] {
        let idle = activity.expire(at: now)
        for device in idle { core.forget(device) }
        return idle
    }
}
