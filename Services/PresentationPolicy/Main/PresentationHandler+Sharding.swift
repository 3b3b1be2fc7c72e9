import BusKit
import MonsterKit
import PresentationCore

/// What a sharded instance saves and rebuilds of a device: its whole session.
extension PresentationHandler: DeviceStateHandler {
    func state(of device: String) -> DeviceSession? { core.devices[device] }

    mutating func restore(_ state: DeviceSession, of device: String) {
        core.restore(state, for: device)
        activity.touch(device, at: Timestamp.wallClock())
    }

    mutating func drop(_ device: String) {
        core.forget(device)
        activity.remove(device)
    }
}
