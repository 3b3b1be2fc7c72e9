import Domain

/// The vocabulary, declared once: for each message type (its case of `MessageType` is its wire
/// name) the body it carries, how its topic is keyed (`MessageType.addressing`, a switch of its
/// own), who may publish it and what it means. The rest is derived from it: the bus's permission
/// table (`Permissions`), the contract (docs/asyncapi.yaml) and the permission tests.
public struct MessageSpec: Sendable {
    /// The type declared.
    public let type: MessageType
    /// The Swift type of its body (`Tap` for `device.tap`).
    public let bodyType: any FieldSet.Type
    /// How its topic is keyed (`Topic`).
    public let addressing: Addressing
    /// The roles that may publish it (the bus refuses it from any other): empty for a type that
    /// is never sent (`action.outcome`, the gateway's printed verdict).
    public let publishers: Set<Role>
    /// Who sends it to whom, and what it says: the contract's description of the message.
    public let summary: String
    /// The declaration of `type`, whose body is `Body.someCase`'s payload (`wrap`).
    init<Payload: FieldSet>(
        _ type: MessageType, _ wrap: @escaping @Sendable (Payload) -> Body, _ addressing: Addressing,
        by publishers: Set<Role>, _ summary: String
    ) {
        self.type = type
        bodyType = Payload.self
        self.addressing = addressing
        self.publishers = publishers
        self.summary = summary
    }
}

extension Role {
    /// The services, which all answer with `ack`, `error`, `action.unchanged`, heartbeats and pongs.
    public static let services: Set<Role> = [.presentationPolicy, .roster, .inputHandling]
}

extension MessageType {
    /// This type's declaration.
    public var spec: MessageSpec { Self.specs[self]! }

    /// How this type's topic is keyed (docs/asyncapi.yaml's channel addresses): requests to the
    /// services that own devices by the device's bucket; the rest of an action's chain (answers,
    /// and requests passed to unsharded services such as roster, which subscribe by type) by the
    /// `replyTo` address of the client that asked; state everyone reads by its type alone.
    /// Declared here rather than with the rest of the declaration: it is read for every message
    /// sent and received, and a switch costs nothing where a look-up hashes the type's name.
    public var addressing: Addressing {
        switch self {
        case .tap, .rotate, .resize, .select, .interaction, .describe, .forget, .inputTap: .byDevice
        case .snapshot, .selection, .monsterUpdated, .backupRequest, .ping, .heartbeat, .statusRequest,
             .statusReport, .lossReport: .broadcast
        case .forgotten, .presented, .hidden, .dismissed, .moved, .interactionChanged, .unchanged, .outcome,
             .inputPassed, .mediaAddRequested, .colorSelected, .deviceLayout, .deviceState, .inputShown,
             .inputHidden, .weaponSelected, .inputState, .snapshotRequest, .rosterSelect, .backup, .pong, .ack,
             .error: .toClient
        case .replica: .toInstance
        }
    }

    private static let specs: [MessageType: MessageSpec] = Dictionary(uniqueKeysWithValues: allCases.map { ($0, $0.declaration) })

    /// Builds the declarations now, as a program starts, rather than on the first message that
    /// needs one.
    public static func loadDeclarations() { _ = specs.count }

    private func declare<Payload: FieldSet>(
        _ wrap: @escaping @Sendable (Payload) -> Body, by publishers: Set<Role>, _ summary: String
    ) -> MessageSpec {
        MessageSpec(self, wrap, addressing, by: publishers, summary)
    }

    /// The declarations, one per type (a switch, so that the compiler finds a type without one).
    private var declaration: MessageSpec {
        let services = Role.services
        return switch self {
        // Device actions, from a client to the service that owns what they touch.
        case .tap: declare(Body.tap, by: [.gateway],
            "A tap on a named element or at a point of the device's screen: client → the service that owns what it touches (Routing.firstHop).")
        case .rotate: declare(Body.rotate, by: [.gateway],
            "The device turned to an orientation: client → presentation-policy.")
        case .resize: declare(Body.resize, by: [.gateway],
            "The app's window changed width class or multitasking mode: client → presentation-policy.")
        case .select: declare(Body.select, by: [.gateway],
            "A monster chosen in the list: client → presentation-policy.")
        case .interaction: declare(Body.interaction, by: [.gateway],
            "A view's user interaction turned on or off: client → presentation-policy.")
        case .describe: declare(Body.describe, by: [.gateway, .observer],
            "A request for the device's state: client or monitor → each owner (presentation-policy, input-handling, roster), which answers with its part.")
        case .forget: declare(Body.forget, by: [.gateway],
            "Drop the envelope's device: client → every service.")
        case .forgotten: declare(Body.forgotten, by: services,
            "A service's answer to device.forget: whether it held state for the device.")
        // From presentation-policy.
        case .presented: declare(Body.presented, by: [.presentationPolicy],
            "A popover or alert was presented: presentation-policy.")
        case .hidden: declare(Body.hidden, by: [.presentationPolicy],
            "A popover was hidden for a rotation, to come back after it: presentation-policy.")
        case .dismissed: declare(Body.dismissed, by: [.presentationPolicy],
            "A popover or alert was dismissed, and why: presentation-policy.")
        case .moved: declare(Body.moved, by: [.presentationPolicy],
            "An alert that stayed up was re-centred (it is not presented again): presentation-policy.")
        case .interactionChanged: declare(Body.interactionChanged, by: [.presentationPolicy, .inputHandling],
            "A view's user interaction was turned on or off: presentation-policy for the app's views, input-handling for the weapon picker's buttons.")
        // Outcomes.
        case .unchanged: declare(Body.unchanged, by: services,
            "The action a service handled changed nothing, and why: any service.")
        case .outcome: declare(Body.outcome, by: [],
            "The gateway's verdict on an action, printed as the last line of every --json action; never sent.")
        case .inputPassed: declare(Body.inputPassed, by: [.inputHandling],
            "No input view is under a tapped point; the app's window hit-tests it: input-handling → presentation-policy.")
        case .mediaAddRequested: declare(Body.mediaAddRequested, by: [.presentationPolicy],
            "The add popover's photo or audio button was chosen: presentation-policy.")
        case .colorSelected: declare(Body.colorSelected, by: [.presentationPolicy],
            "A colour was chosen for the selected monster: presentation-policy → roster.")
        case .deviceLayout: declare(Body.deviceLayout, by: [.presentationPolicy],
            "The device's layout after a rotation or resize, keyboard geometry included: presentation-policy (read by input-handling).")
        case .deviceState: declare(Body.deviceState, by: [.presentationPolicy],
            "presentation-policy's part of a device's state, the answer to device.describe.")
        // To and from input-handling.
        case .inputTap: declare(Body.inputTap, by: [.presentationPolicy],
            "A tap passed on to the input views: presentation-policy → input-handling.")
        case .inputShown: declare(Body.inputShown, by: [.inputHandling],
            "An input view (weapon picker, keyboard) was shown: input-handling.")
        case .inputHidden: declare(Body.inputHidden, by: [.inputHandling],
            "An input view was hidden, and why: input-handling.")
        case .weaponSelected: declare(Body.weaponSelected, by: [.inputHandling],
            "A weapon was chosen in the picker: input-handling → roster.")
        case .inputState: declare(Body.inputState, by: [.inputHandling],
            "input-handling's part of a device's state, the answer to device.describe.")
        // To and from roster.
        case .snapshotRequest: declare(Body.snapshotRequest, by: [.gateway, .observer],
            "A request for the roster: client or monitor → roster.")
        case .snapshot: declare(Body.snapshot, by: [.roster],
            "The whole roster and the device's selected monster: roster.")
        case .rosterSelect: declare(Body.rosterSelect, by: [.presentationPolicy],
            "A monster to select for the device: presentation-policy → roster.")
        case .selection: declare(Body.selection, by: [.roster],
            "The monster now selected on a device: roster.")
        case .monsterUpdated: declare(Body.monsterUpdated, by: [.roster],
            "A monster's weapon or colour changed: roster.")
        case .backupRequest: declare(Body.backupRequest, by: [.gateway],
            "Write a copy of the roster's database to a path in roster's file system: client → roster.")
        case .backup: declare(Body.backup, by: [.roster],
            "The copy was written: roster.")
        // The system.
        case .ping: declare(Body.ping, by: Set(Role.allCases),
            "A health check, from anyone (a container checks its component with that component's certificate).")
        case .pong: declare(Body.pong, by: services.union([.bus]),
            "The answer to sys.ping: every service and the bus.")
        case .heartbeat: declare(Body.heartbeat, by: services.union([.bus]),
            "Alive, with counters: every service and the bus, every interval.")
        case .statusRequest: declare(Body.statusRequest, by: [.gateway, .observer],
            "A request for the system's status: client or monitor → bus.")
        case .statusReport: declare(Body.statusReport, by: [.bus],
            "The bus's counters and each service's last heartbeat: bus.")
        case .lossReport: declare(Body.lossReport, by: [.gateway, .observer],
            "Messages a reader missed by falling behind, by sender: reader (gateway watch) → bus.")
        case .ack: declare(Body.ack, by: services,
            "A service handled a message: the ids it published and those it passed on to another service.")
        case .error: declare(Body.error, by: services.union([.bus]),
            "A message could not be read or was refused, and why: any service, or the bus for what it refuses.")
        // Between instances.
        case .replica: declare(Body.replica, by: [.presentationPolicy, .inputHandling],
            "A device's state, from the sharded instance that owns it to the one standing by for it: frames topic, this JSON, the state, and after an action the owner's acknowledgement (topic, JSON), which the standby publishes as it came: presentation-policy, input-handling.")
        }
    }
}
