import MonsterKit

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

/// The permission table: who may publish each topic and which prefixes each role may
/// subscribe to. One table, by topic prefix, so that a new message type falls under the
/// owner of its prefix (`device.forget` is the gateway's, `roster.backup.done` roster's)
/// and needs a line only when its publisher is not its prefix's owner.
public enum Permissions {
    /// The services, which all answer with `ack`, `error`, heartbeats and pongs.
    static let services: Set<Role> = [.presentationPolicy, .roster, .inputHandling]

    /// Who may publish a topic. An entry ending in `.` covers every topic under it; an exact
    /// entry wins over a prefix, a longer prefix over a shorter one. A topic matching no entry
    /// is published by nobody.
    public static let publishers: [(topic: String, roles: Set<Role>)] = [
        // Actions of a device, and the requests a client may make.
        ("device.", [.gateway]),
        ("device.describe", [.gateway, .observer]),
        ("device.forgotten", services),
        ("roster.backup.request", [.gateway]),
        ("roster.snapshot.request", [.gateway, .observer]),
        // A health check may run with any component's certificate (compose's, in its container).
        ("sys.ping", Set(Role.allCases)),
        ("sys.status.request", [.gateway, .observer]),
        ("sys.loss", [.gateway, .observer]),
        // presentation-policy's own topics, and what it passes on to the others.
        ("presentation.", [.presentationPolicy]),
        ("media.", [.presentationPolicy]),
        ("layout.", [.presentationPolicy]),
        ("color.", [.presentationPolicy]),
        ("interaction.", [.presentationPolicy, .inputHandling]),
        ("input.tap", [.presentationPolicy]),
        ("roster.select.request", [.presentationPolicy]),
        // input-handling's and roster's own topics.
        ("input.", [.inputHandling]),
        ("roster.", [.roster]),
        // The bus's answer to a status request.
        ("sys.status", [.bus]),
        // Every component's answers.
        ("sys.heartbeat", services.union([.bus])),
        ("sys.pong", services.union([.bus])),
        ("ack", services),
        ("action.unchanged", services),
        ("error", services.union([.bus])),
    ]

    /// The topic prefixes each role may subscribe to (`""`: everything in the vocabulary).
    /// Reading is open to every role: no topic is secret, and a refused subscription would
    /// only make a client wait for nothing.
    public static let subscribers: [Role: [String]] = Dictionary(uniqueKeysWithValues: Role.allCases.map { ($0, [""]) })

    /// The roles that may publish `topic`.
    public static func publishers(of topic: String) -> Set<Role> {
        var best: (length: Int, roles: Set<Role>)?
        for (pattern, roles) in publishers {
            if pattern == topic { return roles }
            if pattern.hasSuffix("."), topic.hasPrefix(pattern), pattern.utf8.count > best?.length ?? -1 {
                best = (pattern.utf8.count, roles)
            }
        }
        return best?.roles ?? []
    }
}
