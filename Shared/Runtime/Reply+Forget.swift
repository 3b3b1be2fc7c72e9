import Domain
import Wire

extension Reply {
    /// The answer of a service holding per-device state to `device.forget`: `forget` drops the
    /// envelope's device (true when the service held it) and `service` says so.
    public static func forgetting(_ envelope: Envelope, service: String, forget: (String) -> Bool) -> Reply {
        guard let device = envelope.device else { return Reply([.error(.missingDevice, "forgetting needs a device")]) }
        return Reply([.publish(.forgotten(Forgotten(service: service, held: forget(device))))])
    }
}
