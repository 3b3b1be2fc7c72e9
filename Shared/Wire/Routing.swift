import Domain
/// Which service handles what: each action goes first to the services that own what it touches.
/// The gateway sends an action and waits for the acknowledgements of its first hop; the monitor
/// follows actions the same way; the bus writes the owner of a tap or an interaction change
/// into its topic, and each owner subscribes to its own. One table, read by all of them.
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

    /// The types whose one owner depends on the element (or point) of their body: the bus keys
    /// their topics `type/OWNER/BUCKET` (`owner(of:element:point:)`).
    public static let ownedByElement: Set<MessageType> = [.tap, .interaction]

    /// The one service that owns an action of `type` (one of `ownedByElement`) on `element`
    /// (`nil`: it names none), `point` saying whether it gives a point: the keyboard's window
    /// (input-handling's) is above the app's, so a tap at a point and a tap or interaction change
    /// on an input view's button go to input-handling; every other name to presentation-policy,
    /// which refuses a name neither owns. `nil` for the other types. The bus calls it with what
    /// it reads of a message's body, the services and the gateway with the decoded body.
    public static func owner(of type: MessageType, element: String?, point: Bool) -> String? {
        switch type {
        case .tap:
            element.map(InputElement.weaponPickerButtons.contains) ?? point ? Service.inputHandling : Service.presentationPolicy
        case .interaction:
            element.map(InputElement.weaponPickerButtons.contains) == true ? Service.inputHandling : Service.presentationPolicy
        default:
            nil
        }
    }

    /// The owner of `body` when its type is one of `ownedByElement` (`owner(of:element:point:)`).
    public static func owner(of body: Body) -> String? {
        switch body {
        case .tap(let tap): owner(of: .tap, element: tap.element, point: tap.point != nil)
        case .interaction(let interaction): owner(of: .interaction, element: interaction.element, point: false)
        default: nil
        }
    }

    /// The services that handle `body` directly: its owner for a tap or an interaction change,
    /// else those of its type. `nil` for a type no client sends.
    public static func firstHop(of body: Body) -> [String]? {
        owner(of: body).map { [$0] } ?? firstHop[body.type]
    }

    /// The topic prefix `service` subscribes to for a handled `type`: `type/SERVICE` for one of
    /// `ownedByElement` (only its own taps and interaction changes reach it), else the bare type.
    /// `bucket`: only that bucket's (a sharded instance's), for a `.byDevice` type.
    /// A presentation (`Topic.styled`) read only for one style: `type/STYLE` (`readsOnlyStyle`).
    public static func subscription(to type: MessageType, as service: String, bucket: String? = nil) -> String {
        if Topic.styled.contains(type), let style = readsOnlyStyle[service] { return type.rawValue + "/" + style.rawValue }
        let owned = ownedByElement.contains(type) ? type.rawValue + "/" + service : type.rawValue
        return bucket.map { owned + "/" + $0 } ?? owned
    }

    /// The services that also handle what another service publishes for everyone, and
    /// acknowledge it (what they publish because of it, too): input-handling keeps the keyboard
    /// of each `layout.changed`, and re-shows its input view at the new size.
    public static let readers: [MessageType: [String]] = [
        .deviceLayout: [Service.inputHandling],
    ]

    /// What a service reads without acknowledging it, because reading it never publishes
    /// anything: input-handling keeps whether a modal alert is up from `presentation.presented`
    /// and `presentation.dismissed`. Nobody waits for that read, and no action need: the bus
    /// delivers to each subscriber in the order it forwards, so every message sent after the
    /// presentation's own acknowledgement has come reaches input-handling after the presentation.
    public static let quietReaders: [MessageType: [String]] = [
        .presented: [Service.inputHandling],
        .dismissed: [Service.inputHandling],
    ]

    /// The one style of presentation a service reads `presentation.presented` and
    /// `presentation.dismissed` for, when it reads them for one only: input-handling cares only
    /// whether a modal alert is up, so it subscribes to `type/alert` (`Topic.styled`: the style
    /// leads the key) and no popover wakes it.
    public static let readsOnlyStyle: [String: PresentationStyle] = [
        Service.inputHandling: .alert,
    ]
}
