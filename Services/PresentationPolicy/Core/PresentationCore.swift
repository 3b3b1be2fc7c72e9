import Domain

/// presentation-policy's decisions, for any number of devices: device actions in, effects out.
/// No sockets, no clocks; the bus adapter publishes the effects.
public struct PresentationCore: Sendable {
    /// Every device seen, by id (`forget` and `restore` come with `DeviceStateCore`).
    public var devices: [String: DeviceSession] = [:]

    /// A core that knows no device yet.
    public init() {}

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
            let effects = Self.apply(action, to: &devices.values[index])
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
        var session = DeviceSession(profile: profile)
        let effects = Self.apply(action, to: &session)
        // A refused action leaves the device as it was — but a device described for the first
        // time is known from now on, as it was described (the profile itself was fine).
        devices[deviceId] = effects.contains(where: \.isError) ? DeviceSession(profile: profile) : session
        return effects
    }

    /// What `action` does to `session`.
    private static func apply(_ action: PresentationAction, to session: inout DeviceSession) -> [Effect] {
        switch action {
        case .tap(let tap): Taps.handle(tap, in: &session)
        case .rotate(let rotate): Rotation.rotate(to: rotate.orientation, in: &session)
        case .resize(let resize): Rotation.resize(resize, in: &session)
        case .select(let select): Selection.select(select.monster, in: &session)
        case .interaction(let interaction): setInteraction(interaction, in: &session)
        case .inputPassed(let passed): Taps.passed(passed, in: &session)
        case .describe: describe(session)
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
    private static func describe(_ session: DeviceSession) -> [Effect] {
        [.publish(.deviceState(session.message))]
    }
}
