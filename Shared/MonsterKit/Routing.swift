/// Which service handles what: each action goes first to the services that own what it touches.
/// The gateway sends an action and waits for the acknowledgements of its first hop; the monitor
/// follows actions the same way. One table, read by both.
public enum Routing {
    private typealias Service = MonsterBus.Service

    /// The services that handle each action a client sends, directly (its first hop).
    public static let firstHop: [MessageType: [String]] = [
        .tap: [Service.presentationPolicy],
        .rotate: [Service.presentationPolicy],
        .resize: [Service.presentationPolicy],
        .select: [Service.presentationPolicy],
        .interaction: [Service.presentationPolicy],
        .describe: [Service.presentationPolicy, Service.inputHandling, Service.roster],
        .forget: Service.all,
        .snapshotRequest: [Service.roster],
        .backupRequest: [Service.roster],
    ]

    /// The services that handle an action of `type` directly; `nil` for a type no client sends.
    public static func firstHop(of type: MessageType) -> [String]? { firstHop[type] }

    /// The services that also handle what another service publishes for everyone, and
    /// acknowledge it: input-handling keeps the keyboard of each `layout.changed`.
    public static let readers: [MessageType: [String]] = [
        .deviceLayout: [Service.inputHandling],
    ]
}
