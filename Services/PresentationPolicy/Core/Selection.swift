import MonsterKit

/// `select NAME`: picking a monster in the roster list.
///
/// Where the list is on screen, `select` is exactly a tap on its row — the landscape pane's row
/// (hit-tested as a tap: with a popover up, the tap lands outside it and only dismisses it, as
/// UIKit does) or the Monster List popover's row (picked; the popover is dismissed with reason
/// `selection`). Where the list is not on screen (an iPad in portrait without the Monster List
/// popover, compact windows, iPhones), `select` is the app selecting programmatically: the
/// detail pane shows the monster and any popover stays; it is refused while an alert is up.
enum Selection {
    static func select(_ name: String, in session: inout DeviceSession) -> [Effect] {
        guard let monster = Catalogue.monster(named: name) ?? Catalogue.monsters.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            return [.error(.unknownMonster, "no monster is named '\(name)'; the roster has \(Catalogue.names.joined(separator: ", "))")]
        }
        if let presentation = session.presentation, presentation.content == .monsterList,
           let index = presentation.buttons.firstIndex(of: monster.name) {
            return Taps.deliver(.presentationButton(index), in: &session)
        }
        if let row = session.layout.row(named: monster.name) {
            return Taps.deliver(.element(row), in: &session)
        }
        if let presentation = session.presentation, presentation.style == .alert {
            return [.error(.modalAlert, "an alert (\(presentation.message ?? "")) is up: the roster cannot be reached until it is dismissed")]
        }
        return [.forward(.rosterSelect(RosterSelect(monster: monster.name)), to: MonsterBus.Service.roster)]
    }
}
