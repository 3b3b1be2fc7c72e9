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
    /// A tap or an interaction change goes by what it touches: `firstHop(of:)` a body.
    public static func firstHop(of type: MessageType) -> [String]? { firstHop[type] }

    /// The services that handle `body` directly, by element where the type alone does not say:
    /// the keyboard's window (input-handling's) is above the app's, so a tap at a point and a tap
    /// or interaction change on an input view's button go to input-handling; every other name
    /// to presentation-policy, which refuses a name neither owns. `nil` for a type no client sends.
    public static func firstHop(of body: Body) -> [String]? {
        switch body {
        case .tap(let tap) where tap.element.map(InputElement.weaponPickerButtons.contains) ?? (tap.point != nil):
            [Service.inputHandling]
        case .interaction(let interaction) where InputElement.weaponPickerButtons.contains(interaction.element):
            [Service.inputHandling]
        default:
            firstHop[body.type]
        }
    }

    /// Whether `service` handles `body` when it handles its type: a client's action only where
    /// it is among its first hop (a tap or interaction change reaches both owners' subscriptions).
    public static func handles(_ service: String, _ body: Body) -> Bool {
        firstHop(of: body).map { $0.contains(service) } ?? true
    }

    /// The services that also handle what another service publishes for everyone, and
    /// acknowledge it: input-handling keeps the keyboard of each `layout.changed`, and whether a
    /// modal alert is up from `presentation.presented` and `presentation.dismissed`.
    public static let readers: [MessageType: [String]] = [
        .deviceLayout: [Service.inputHandling],
        .presented: [Service.inputHandling],
        .dismissed: [Service.inputHandling],
    ]
}
