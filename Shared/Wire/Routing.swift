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
    /// their topics `type/OWNER/BUCKET` (`owners`).
    public static let ownedByElement: Set<MessageType> = Set(owners.rules.keys)

    /// Who owns a tap and an interaction change: the keyboard's window (input-handling's) is
    /// above the app's, so a tap at a point and a tap or interaction change on an input view's
    /// button go to input-handling; every other name to presentation-policy, which refuses a
    /// name neither owns. A value, so that the bus is handed it rather than knowing any element.
    public static let owners = OwnerTable(rules: [
        .tap: OwnerTable.Rule(
            byElement: Dictionary(uniqueKeysWithValues: InputElement.weaponPickerButtons.map { ($0, Service.inputHandling) }),
            atPoint: Service.inputHandling, otherwise: Service.presentationPolicy),
        .interaction: OwnerTable.Rule(
            byElement: Dictionary(uniqueKeysWithValues: InputElement.weaponPickerButtons.map { ($0, Service.inputHandling) }),
            atPoint: Service.presentationPolicy, otherwise: Service.presentationPolicy),
    ])

    /// The one service that owns an action of `type` (one of `ownedByElement`) on `element`
    /// (`nil`: it names none), `point` saying whether it gives a point (`owners`); `nil` for the
    /// other types.
    public static func owner(of type: MessageType, element: String?, point: Bool) -> String? {
        owners.owner(of: type, element: element, point: point)
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

/// Who owns each action whose owner depends on what it touches: per type, the owners of named
/// elements, the owner of a tap at a point, and everyone else's owner.
public struct OwnerTable: Sendable {
    /// One type's owners.
    public struct Rule: Sendable {
        /// The owner of each element that is not `otherwise`'s.
        public let byElement: [String: String]
        /// The owner when the action names no element but gives a point.
        public let atPoint: String
        /// The owner of everything else.
        public let otherwise: String

        /// A rule from its parts.
        public init(byElement: [String: String], atPoint: String, otherwise: String) {
            self.byElement = byElement; self.atPoint = atPoint; self.otherwise = otherwise
        }
    }

    /// The rule of each type whose owner depends on what it touches.
    public let rules: [MessageType: Rule]

    /// A table of `rules`.
    public init(rules: [MessageType: Rule]) { self.rules = rules }

    /// The owner of an action of `type` on `element` (or at a point, when `point` and no
    /// element); `nil` for a type whose owner does not depend on what it touches.
    public func owner(of type: MessageType, element: String?, point: Bool) -> String? {
        guard let rule = rules[type] else { return nil }
        guard let element else { return point ? rule.atPoint : rule.otherwise }
        return rule.byElement[element] ?? rule.otherwise
    }
}
