import Domain

/// presentation-policy's decisions, for any number of devices: device actions in, effects out.
/// No sockets, no clocks; the bus adapter publishes the effects.
public struct PresentationCore: Sendable {
    /// Every device seen, by id (`forget` comes with `DeviceStateCore`).
    public var devices: [String: DeviceSession] = [:]
    /// The tables its owner keeps for it: what devices hold alike, and what a screen computes.
    public let memo: any PresentationMemo

    /// A core that knows no device yet, given the tables `memo` by its owner.
    public init(memo: any PresentationMemo) { self.memo = memo }

    /// Handles a device action for `device` and says what to publish. A known device's session
    /// is changed where it is held (no copy taken out and written back, no second look-up); a
    /// refused action puts back the session it had.
    public mutating func handle(device deviceId: String?, action: PresentationAction) -> [Effect] {
        guard let deviceId else {
            return [.error(.missingDevice, "a device action needs a device id in its envelope")]
        }
        let profile = action.profile
        if let index = devices.index(forKey: deviceId) {
            let before = devices.values[index]
            if let profile, !before.sameHardware(as: profile) {
                return [.error(
                    .deviceConflict,
                    "device '\(deviceId)' is already a \(before.profile.idiom.rawValue) of \(Int(before.profile.screen.width))×\(Int(before.profile.screen.height)) pt on OS \(before.profile.os); use another device id for other hardware")]
            }
            let effects = Self.apply(action, to: &devices.values[index], memo: memo)
            if effects.contains(where: \.isError) { devices.values[index] = before }
            return effects
        }
        guard let profile else {
            return [.error(
                .unknownDevice,
                "device '\(deviceId)' is unknown: describe it the first time it is used (a profile such as ipad or iphone)")]
        }
        let problems = profile.problems
        guard problems.isEmpty else {
            return [.error(.badProfile, "device '\(deviceId)': " + problems.joined(separator: "; "))]
        }
        let interned = memo.interned(profile)
        var session = DeviceSession(profile: interned)
        let effects = Self.apply(action, to: &session, memo: memo)
        // A refused action leaves the device as it was — but a device described for the first
        // time is known from now on, as it was described (the profile itself was fine).
        devices[deviceId] = effects.contains(where: \.isError) ? DeviceSession(profile: interned) : session
        return effects
    }

    /// Holds `session` for `device`, rebuilt from its snapshot on another instance: its profile
    /// and presentation interned by this core's memo.
    public mutating func restore(_ session: DeviceSession, for device: String) {
        devices[device] = session.interned(by: memo)
    }

    /// What `action` does to `session`, reading layouts and presentations from `memo`.
    private static func apply(_ action: PresentationAction, to session: inout DeviceSession, memo: any PresentationMemo) -> [Effect] {
        switch action {
        case .tap(let tap): Taps.handle(tap, in: &session, memo: memo)
        case .rotate(let rotate): Rotation.rotate(to: rotate.orientation, in: &session, memo: memo)
        case .resize(let resize): Rotation.resize(resize, in: &session, memo: memo)
        case .select(let select): Selection.select(select.monster, in: &session, memo: memo)
        case .interaction(let interaction): setInteraction(interaction, in: &session)
        case .inputPassed(let passed): Taps.passed(passed, in: &session, memo: memo)
        case .describe: describe(session, memo: memo)
        }
    }

    /// Every view whose user interaction can be set here: the window's (input-handling sets its
    /// input views' buttons').
    static let interactiveNames: Set<String> = ScreenLayout.allElementNames

    private static func setInteraction(_ interaction: Interaction, in session: inout DeviceSession) -> [Effect] {
        var element = interaction.element
        if !interactiveNames.contains(element), let monster = Catalogue.monsters.first(where: { $0.name.lowercased() == element.lowercased() }) {
            element = ElementName.rowPrefix + monster.name
        }
        guard interactiveNames.contains(element) else {
            return [.error(.unknownElement, "'\(interaction.element)' is not a view of this app (nor a button of the weapon picker)")]
        }
        let wasEnabled = !session.interactionDisabled.contains(element)
        guard wasEnabled != interaction.enabled else {
            return [.unchanged(.interactionUnchanged, "'\(element)' already has user interaction \(interaction.enabled ? "on" : "off")")]
        }
        if interaction.enabled {
            session.interactionDisabled.remove(element)
        } else {
            session.interactionDisabled.insert(element)
        }
        return [.publish(.interactionChanged(InteractionChanged(
            element: element, enabled: interaction.enabled, interactionDisabled: session.interactionDisabled.sorted())))]
    }

    /// The device's window and presentation; input-handling and roster answer the same
    /// `device.describe` with their own parts.
    private static func describe(_ session: DeviceSession, memo: any PresentationMemo) -> [Effect] {
        [.publish(.deviceState(session.message(layout: session.layout(in: memo))))]
    }
}
