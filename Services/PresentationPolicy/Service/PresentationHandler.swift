import BusKit
import MonsterKit
import PresentationCore

/// Connects `PresentationCore` to the bus: device actions in, its effects out; `device.forget`
/// and devices idle for longer than `DEVICE_IDLE_EXPIRY_SECONDS` drop a device's state.
public struct PresentationHandler: ServiceHandler {
    public var core = PresentationCore()
    public var activity: DeviceActivity

    /// A handler with no device yet, forgetting devices as `activity` says.
    public init(activity: DeviceActivity) { self.activity = activity }

    /// The core's actions (device actions, taps the keyboard's window passed back to the app's),
    /// and `device.forget`.
    public let handledTypes: [MessageType] = PresentationAction.types + [.forget]

    /// Its handled types, a client's tap or interaction change only where it owns the element
    /// (`Routing.firstHop(of:)`: both services subscribe to `device.tap` and `device.interaction`).
    public func accepts(_ envelope: Envelope) -> Bool {
        accepts(envelope.type) && Routing.handles(MonsterBus.Service.presentationPolicy, envelope.body)
    }

    public mutating func handle(_ envelope: Envelope) -> Reply {
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

    public mutating func forgetIdleDevices(now: Double) -> [String] {
        let idle = activity.expire(at: now)
        for device in idle { core.forget(device) }
        return idle
    }
}
