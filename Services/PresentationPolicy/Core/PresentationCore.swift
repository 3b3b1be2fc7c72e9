import MonsterKit

/// presentation-policy's decisions, for any number of devices: device actions in, effects out.
/// No sockets, no clocks; the bus adapter publishes the effects.
public struct PresentationCore: Sendable {
    /// Every device seen, by id.
    public private(set) var devices: [String: DeviceSession] = [:]

    /// A core that knows no device yet.
    public init() {}

    /// Drops everything held for `device` (`device.forget`, or idle for too long); returns
    /// whether there was anything.
    @discardableResult
    public mutating func forget(_ device: String) -> Bool {
        devices.removeValue(forKey: device) != nil
    }

    /// Holds `session` for `device`: rebuilt from its snapshot on another instance.
    public mutating func restore(_ session: DeviceSession, for device: String) {
        devices[device] = session
    }

    /// Handles a device action for `device` and says what to publish.
    public mutating func handle(device deviceId: String?, action: PresentationAction) -> [Effect] {
        guard let deviceId else {
            return [.error(.missingDevice, "a device action needs a device id in its envelope")]
        }
        let profile = action.profile
        var session: DeviceSession
        switch resolve(deviceId, profile: profile) {
        case .success(let found): session = found
        case .failure(let refusal): return [refusal.effect]
        }
        let isNew = devices[deviceId] == nil
        var effects: [Effect]
        switch action {
        case .tap(let tap): effects = Taps.handle(tap, in: &session)
        case .rotate(let rotate): effects = Rotation.rotate(to: rotate.orientation, in: &session)
        case .resize(let resize): effects = Rotation.resize(resize, in: &session)
        case .select(let select): effects = Selection.select(select.monster, in: &session)
        case .interaction(let interaction): effects = Self.setInteraction(interaction, in: &session)
        case .inputPassed(let passed): effects = Taps.passed(passed, in: &session)
        case .describe: effects = Self.describe(session)
        }
        if !effects.contains(where: \.isError) {
            devices[deviceId] = session
        } else if isNew, let profile {
            // A refused action leaves the device as it was — but a device described for the first
            // time is known from now on, as it was described (the profile itself was fine).
            devices[deviceId] = DeviceSession(profile: profile)
        }
        return effects
    }

    private struct Refusal: Error { let effect: Effect }

    /// The device's session, created from `profile` the first time it is seen.
    private func resolve(_ id: String, profile: DeviceProfile?) -> Result<DeviceSession, Refusal> {
        if let session = devices[id] {
            if let profile, !session.sameHardware(as: profile) {
                return .failure(Refusal(effect: .error(
                    .deviceConflict,
                    "device '\(id)' is already a \(session.profile.idiom.rawValue) of \(Int(session.profile.screen.width))×\(Int(session.profile.screen.height)) pt on OS \(session.profile.os); use another device id for other hardware")))
            }
            return .success(session)
        }
        guard let profile else {
            return .failure(Refusal(effect: .error(
                .unknownDevice,
                "device '\(id)' is unknown: describe it the first time it is used (a profile such as ipad or iphone)")))
        }
        let problems = profile.problems
        guard problems.isEmpty else {
            return .failure(Refusal(effect: .error(.badProfile, "device '\(id)': " + problems.joined(separator: "; "))))
        }
        return .success(DeviceSession(profile: profile))
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
