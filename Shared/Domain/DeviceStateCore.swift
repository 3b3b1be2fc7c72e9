/// A decision core that holds one state per device, which a sharded instance saves to etcd and
/// rebuilds on the instance that comes to own the device.
public protocol DeviceStateCore {
    /// What the core decides on: its own actions, switched over exhaustively.
    associatedtype Action
    /// The action `body` carries, or nil for a message this core does not decide on.
    static func action(of body: Body) -> Action?
    /// What the core does about `action` on `device`.
    mutating func handle(device: String?, action: Action) -> [Effect]
    /// What the core holds of one device.
    associatedtype DeviceState
    /// Every device seen, by id.
    var devices: [String: DeviceState] { get set }
    /// Holds `state` for `device`, rebuilt from its snapshot on another instance (a core that
    /// interns what devices hold alike interns it again).
    mutating func restore(_ state: DeviceState, for device: String)
}

extension DeviceStateCore {
    /// Drops everything held for `device` (`device.forget`, idle for too long, or moved to
    /// another instance); returns whether there was anything.
    @discardableResult
    public mutating func forget(_ device: String) -> Bool {
        devices.removeValue(forKey: device) != nil
    }

    /// Holds `state` for `device` as it is.
    public mutating func restore(_ state: DeviceState, for device: String) {
        devices[device] = state
    }
}
