import MonsterKit

/// Picking a monster in the roster list (the master pane, or the "Monster List" popover).
enum Selection {
    /// Selects `name`: refused while an alert is up; a popover on screen is dismissed
    /// (the Monster List popover because a monster was picked in it); roster is told.
    static func select(_ name: String, in session: inout DeviceSession) -> [Effect] {
        guard let monster = Catalogue.monster(named: name) ?? Catalogue.monsters.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            return [.error("unknown-monster", "no monster is named '\(name)'; the roster has \(Catalogue.names.joined(separator: ", "))")]
        }
        var effects: [Effect] = []
        if let presentation = session.presentation {
            if presentation.style == .alert {
                return [.error("modal-alert", "an alert (\(presentation.message ?? "")) is up: the roster cannot be reached until it is dismissed")]
            }
            effects.append(Taps.dismiss(&session, reason: "selection"))
        }
        effects.append(.forward(.rosterSelect(RosterSelect(monster: monster.name)), to: MonsterBus.Service.roster))
        return effects
    }
}
