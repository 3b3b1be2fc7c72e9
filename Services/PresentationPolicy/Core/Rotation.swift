import MonsterKit

/// Rotation and resizing: the window changes under whatever is presented.
enum Rotation {
    /// Turns the device. A visible popover is hidden when rotation starts and, when it ends,
    /// presented again at its anchor — or dismissed when the anchor is gone or was a rectangle.
    /// An alert stays up, re-centred. The input view takes the new keyboard width.
    static func rotate(to orientation: Orientation, in session: inout DeviceSession) -> [Effect] {
        guard orientation != session.orientation else { return [] }
        var effects: [Effect] = []
        if let presentation = session.presentation, presentation.style == .popover {
            effects.append(.publish(.hidden(Hidden(presentation: presentation, reason: "rotation"))))
        }
        session.orientation = orientation
        let layout = session.layout
        effects.append(.publish(.deviceLayout(layout.message)))
        if let replaced = placeAgain(in: &session, layout: layout, reason: "rotation") { effects.append(replaced) }
        effects.append(.forward(
            .inputLayout(InputLayout(keyboard: layout.keyboard, reason: "rotation")), to: MonsterBus.Service.inputHandling))
        return effects
    }

    /// Changes the window's width class (iPad multitasking). A popover cannot stay in a compact
    /// window and is dismissed; an alert stays up, re-centred.
    static func resize(to widthClass: SizeClass, in session: inout DeviceSession) -> [Effect] {
        if session.profile.idiom == .phone && widthClass == .regular {
            return [.error("unsupported", "an iPhone window is always compact width")]
        }
        guard widthClass != session.widthClass else { return [] }
        var effects: [Effect] = []
        if session.presentation?.style == .popover {
            effects.append(Taps.dismiss(&session, reason: "size-class"))
        }
        session.widthClass = widthClass
        let layout = session.layout
        effects.append(.publish(.deviceLayout(layout.message)))
        if let replaced = placeAgain(in: &session, layout: layout, reason: "resize") { effects.append(replaced) }
        effects.append(.forward(
            .inputLayout(InputLayout(keyboard: layout.keyboard, reason: "resize")), to: MonsterBus.Service.inputHandling))
        return effects
    }

    /// Places the presentation on screen again in `layout`, or dismisses it if it cannot be.
    private static func placeAgain(in session: inout DeviceSession, layout: ScreenLayout, reason: String) -> Effect? {
        guard let presentation = session.presentation else { return nil }
        if let again = PresentationFactory.replace(presentation, in: layout) {
            session.presentation = again
            return .publish(.presented(Presented(presentation: again, reason: reason)))
        }
        return Taps.dismiss(&session, reason: presentation.anchor?.kind == .rect ? "rect-anchor" : "anchor-gone")
    }
}
