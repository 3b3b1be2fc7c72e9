import BusKit
import MonsterKit
import PresentationCore

/// Connects `PresentationCore` to the bus: device actions in, its effects out; `device.forget`
/// and devices idle for longer than `DEVICE_IDLE_EXPIRY_SECONDS` drop a device's state.
struct PresentationHandler: ServiceHandler {
    var core = PresentationCore()
    var activity: DeviceActivity

    /// Device actions, `device.forget`, and taps the keyboard's window passed back to the app's.
    let handledTypes: [MessageType] = MessageType.allCases.filter(\.isDeviceAction) + [.forget, .inputPassed]

    mutating func handle(_ envelope: Envelope) -> Reply {
        if case .forget = envelope.body {
            return .forgetting(envelope, service: MonsterBus.Service.presentationPolicy) { device in
                activity.remove(device)
                return core.forget(device)
            }
        }
        let effects = core.handle(device: envelope.device, action: envelope.body)
        if let device = envelope.device, core.devices[device] != nil { activity.touch(device, at: Timestamp.wallClock()) }
        return Reply(effects)
    }

    mutating func forgetIdleDevices(now: Double) -> [String] {
        let idle = activity.expire(at: now)
        for device in idle { core.forget(device) }
        return idle
    }
}
