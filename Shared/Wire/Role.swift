
/// What a client may do on the bus, from the `role` in its certificate's metadata
/// (`role = "…"`; a certificate without one is a `gateway`).
public enum Role: String, Sendable, CaseIterable {
    /// Any client acting as a device: the gateway CLI, scripts, pyzmq clients.
    case gateway
    /// The presentation-policy service.
    case presentationPolicy = "presentation-policy"
    /// The roster service.
    case roster
    /// The input-handling service.
    case inputHandling = "input-handling"
    /// Read-only tools (the monitor): may ask (describe, snapshot, ping, status), never act.
    case observer
    /// The bus's own client (heartbeats, status, its refusals).
    case bus

    /// True for the roles that are one component of the system, whose name is their `service`.
    public var isComponent: Bool {
        switch self {
        case .presentationPolicy, .roster, .inputHandling, .bus: true
        case .gateway, .observer: false
        }
    }
}
