import Domain

/// `select NAME`: picking a monster in the roster list.
///
/// Where the list is on screen, `select` is exactly a tap on its row — the landscape pane's row
/// (hit-tested as a tap: with a popover up, the tap lands outside it and only dismisses it, as
/// UIKit does) or the Monster List popover's row (picked; the popover is dismissed with reason
/// `selection`). Where the list is not on screen (an iPad in portrait without the Monster List
/// popover, compact windows, iPhones), `select` is the app selecting programmatically: the
/// detail pane shows the monster and any popover stays; it is refused while an alert is up.
/// The roster, which owns the monsters, checks the name.
enum Selection {
    static func select(_ name: String, in session: inout DeviceSession, memo: any PresentationMemo) -> [Effect] {
        if let presentation = session.presentation, presentation.content == .monsterList,
           let index = presentation.buttons.firstIndex(where: { Taps.sameIgnoringCase($0, name) }) {
            return Taps.deliver(.presentationButton(index), in: &session, memo: memo)
        }
        if let row = session.heldLayout(in: memo).value.row(named: name) {
            return Taps.deliver(.element(row), in: &session, memo: memo)
        }
        if let presentation = session.presentation, presentation.style == .alert {
            return [.error(.modalAlert, "an alert (\(presentation.message ?? "")) is up: the roster cannot be reached until it is dismissed")]
        }
        // Whether a monster has this name is the roster's to say (it refuses `unknown-monster`).
        return [.forward(.rosterSelect(RosterSelect(monster: name)), to: MonsterBus.Service.roster)]
    }
}
