import Domain
import PresentationCore
import Runtime

/// Connects `PresentationCore` to the bus (`DeviceCoreHandler`: device actions in, its effects
/// out); `device.forget` and devices idle for longer than `DEVICE_IDLE_EXPIRY_SECONDS` drop a
/// device's state; sharded, each device's whole session moves with it.
public struct PresentationHandler: DeviceCoreHandler {
    /// The core, handed the tables this handler's process keeps for it.
    public var core = PresentationCore(memo: PresentationTables())
    /// When each device was last used.
    public var activity: DeviceActivity
    /// presentation-policy.
    public let service = MonsterBus.Service.presentationPolicy

    /// A handler with no device yet, forgetting devices as `activity` says.
    public init(activity: DeviceActivity) { self.activity = activity }

    /// The core's actions (device actions, taps the keyboard's window passed back to the app's),
    /// and `device.forget`.
    public let handledTypes: [MessageType] = PresentationAction.types + [.forget]
}
