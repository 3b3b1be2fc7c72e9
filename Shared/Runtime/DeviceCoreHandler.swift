import Domain
import Wire

/// A service handler whose state is per device and can be saved and rebuilt: what sharding
/// needs to move a device between instances.
public protocol DeviceStateHandler: ServiceHandler {
    /// One device's whole state.
    associatedtype DeviceState: FieldSet & Equatable
    /// The state held for `device`, if any.
    func state(of device: String) -> DeviceState?
    /// Holds `state` for `device` (rebuilt from its snapshot).
    mutating func restore(_ state: DeviceState, of device: String)
    /// Drops `device` from memory only (it moved to another instance).
    mutating func drop(_ device: String)
}

/// A handler around a `DeviceStateCore`, with the activity that expires idle devices: its
/// state per device is the core's, and a device restored or dropped is touched or removed in
/// `activity` too.
public protocol DeviceCoreHandler: DeviceStateHandler where DeviceState == Core.DeviceState {
    /// The service's pure core (`InputCore`, `PresentationCore`).
    associatedtype Core: DeviceStateCore
    /// The core, holding every device's state.
    var core: Core { get set }
    /// When each device was last used, to forget the idle ones.
    var activity: DeviceActivity { get set }
    /// The service's name (`Routing` says which taps and interaction changes are its own).
    var service: String { get }
}

extension DeviceCoreHandler {
    /// Every handled type, bare, but a tap or an interaction change only on this service's own
    /// elements (`Routing.subscription(to:as:)`: the bus writes their owner into their topic).
    public var subscriptions: [String] { handledTypes.map { Routing.subscription(to: $0, as: service) } }

    /// `device.forget` drops the device (answered `device.forgotten`); anything else is the
    /// core's action, and the device counts as used now.
    public mutating func handle(_ envelope: Envelope) -> Reply {
        if case .forget = envelope.body {
            return .forgetting(envelope, service: service) { device in
                activity.remove(device)
                return core.forget(device)
            }
        }
        guard let action = Core.action(of: envelope.body) else {
            return Reply([.error(MessageError.Code.unknownType, "\(service) does not handle \(envelope.type.rawValue)")])
        }
        let effects = core.handle(device: envelope.device, action: action)
        // A device tracked is one the core holds (both forget it together): one look-up for it;
        // a new one is tracked once the core holds it.
        if let device = envelope.device {
            let now = Timestamp.wallClock()
            if !activity.touchIfTracked(device, at: now), core.devices[device] != nil { activity.touch(device, at: now) }
        }
        return Reply(effects)
    }

    /// Forgets, in `activity` and in the core, the devices idle at `now`.
    public mutating func forgetIdleDevices(now: Double) -> [String] {
        let idle = activity.expire(at: now)
        for device in idle { core.forget(device) }
        return idle
    }

    /// The core's state for `device`.
    public func state(of device: String) -> DeviceState? { core.devices[device] }

    /// Gives `state` to the core and counts `device` as used now.
    public mutating func restore(_ state: DeviceState, of device: String) {
        core.restore(state, for: device)
        activity.touch(device, at: Timestamp.wallClock())
    }

    /// Drops `device` from the core and from `activity`.
    public mutating func drop(_ device: String) {
        core.forget(device)
        activity.remove(device)
    }
}
