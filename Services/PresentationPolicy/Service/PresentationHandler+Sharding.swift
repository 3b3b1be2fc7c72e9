import BusKit
import MonsterKit
import PresentationCore

/// What a sharded instance saves and rebuilds of a device: its whole session.
extension PresentationHandler: DeviceStateHandler {
    public func state(of device: String) -> DeviceSession? { core.devices[device] }

    public mutating func restore(_ state: DeviceSession, of device: String) {
        core.restore(state, for: device)
        activity.touch(device, at: Timestamp.wallClock())
    }

    public mutating func drop(_ device: String) {
        core.forget(device)
        activity.remove(device)
    }
}
