/// A decision core that holds one state per device, which a sharded instance saves to etcd and
/// rebuilds on the instance that comes to own the device.
public protocol DeviceStateCore {
    /// What the core holds of one device.
    associatedtype DeviceState
    /// Every device seen, by id.
    var devices: [String: DeviceState] { get }
    /// Holds `state` for `device`: rebuilt from its snapshot on another instance.
    mutating func restore(_ state: DeviceState, for device: String)
    /// Drops everything held for `device`; returns whether there was anything.
    @discardableResult
    mutating func forget(_ device: String) -> Bool
}
