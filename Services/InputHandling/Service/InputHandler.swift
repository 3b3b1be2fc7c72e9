import Domain
import InputCore
import Runtime

/// Connects `InputCore` to the bus (`DeviceCoreHandler`: its actions in, its effects out);
/// `device.forget` and devices idle for longer than `DEVICE_IDLE_EXPIRY_SECONDS` drop a
/// device's state; sharded, each device's first responder and input views move with it.
public struct InputHandler: DeviceCoreHandler {
    /// The core, holding every device's first responder and input views.
    public var core = InputCore()
    /// When each device was last used.
    public var activity: DeviceActivity
    /// input-handling.
    public let service = MonsterBus.Service.inputHandling

    /// A handler with no device yet, forgetting devices as `activity` says.
    public init(activity: DeviceActivity) { self.activity = activity }

    /// The core's actions, and `device.forget`.
    public let handledTypes: [MessageType] = InputAction.types + [.forget]
}
