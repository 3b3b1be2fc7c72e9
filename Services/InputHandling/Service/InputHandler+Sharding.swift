import BusKit
import InputCore
import MonsterKit

/// What a sharded instance saves and rebuilds of a device: its first responder and input views.
extension InputHandler: DeviceStateHandler {
    public func state(of device: String) -> InputDevice? { core.devices[device] }

    public mutating func restore(_ state: InputDevice, of device: String) {
        core.restore(state, for: device)
        activity.touch(device, at: Timestamp.wallClock())
    }

    public mutating func drop(_ device: String) {
        core.forget(device)
        activity.remove(device)
    }
}
