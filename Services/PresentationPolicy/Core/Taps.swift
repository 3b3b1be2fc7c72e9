import Domain

/// How a tap is resolved and delivered, UIKit style, window by window from the top: an alert is
/// modal; the keyboard's window (input views, owned by input-handling) is above the app's, so a
/// tap at a point goes there first (`Routing.firstHop(of:)`) and comes here (`input.passed`) when
/// no input view is under it; in the app's window a popover is dismissed by a tap outside it (the
/// tap goes no further) unless the tap lands on one of its passthrough views.
enum Taps {
    /// What a tap landed on.
    enum Target {
        /// A button of the presentation on screen, by index.
        case presentationButton(Int)
        /// Inside the presentation, on no button.
        case insidePresentation
        /// An element of the window's layout.
        case element(LayoutElement)
        /// Nothing: the window's background (`outside`, or a point on no element).
        case background
        /// A point on the screen but outside the app's window (another app's part of the screen).
        case offWindow(Point)
        /// A name neither this service nor input-handling knows: refused here, after modality.
        case unknown(String)
        /// A name this service knows, that is not on screen now.
        case notOnScreen(String)
    }

    /// The names of every button a presentation can have, as taps spell them.
    private static let presentationButtonNames: Set<String> = Set(
        [PresentationContent.add, .color, .monsterList].flatMap(PresentationFactory.alertButtons).map { $0.lowercased() })

    /// Handles a tap on `session`'s device.
    static func handle(_ tap: Tap, in session: inout DeviceSession, memo: any PresentationMemo) -> [Effect] {
        switch (tap.element, tap.point) {
        case (let name?, nil):
            let target = resolve(name, in: session, memo: memo)
            if case .notOnScreen(let why) = target { return [.error(.noSuchElement, why)] }
            return deliver(target, in: &session, memo: memo)
        case (nil, let point?):
            // Routed to the keyboard's window first; hit-tested here as if it had passed it on.
            return hitTest(point, in: &session, memo: memo)
        case (nil, nil), (_?, _?):
            return [.error(.badTap, "a tap names either an element or a point")]
        }
    }

    /// A tap at `point` that the keyboard's window passed back: the app's window hit-tests it.
    static func passed(_ passed: InputPassed, in session: inout DeviceSession, memo: any PresentationMemo) -> [Effect] {
        hitTest(passed.point, in: &session, memo: memo)
    }

    /// A tap at `point` no input view took: off the screen, or what is under it in the app's window.
    private static func hitTest(_ point: Point, in session: inout DeviceSession, memo: any PresentationMemo) -> [Effect] {
        guard point.x.isFinite, point.y.isFinite else {
            return [.error(.badTap, "a tap's point must be finite numbers")]
        }
        let layout = session.layout(in: memo)
        guard layout.screenBounds.contains(point) else {
            return [.unchanged(.offScreen, "\(describe(point)) is off the screen (\(describe(layout.screenBounds)) in window coordinates): nothing is there to tap")]
        }
        return deliver(hitTestWindow(point, in: session, layout: layout), in: &session, memo: memo)
    }

    /// Delivers `target` given what is presented: the alert's modality, the popover's outside taps.
    static func deliver(_ target: Target, in session: inout DeviceSession, memo: any PresentationMemo) -> [Effect] {
        if case .offWindow(let point) = target {
            return [.unchanged(.outsideWindow, "\(describe(point)) is outside the app's window (\(describe(session.heldLayout(in: memo).value.bounds))), on another app's part of the screen: nothing changed here")]
        }
        // Read where it is held: a tap looks at a few of its fields (no copy of the whole).
        guard let shown = session.shownPresentation else {
            return deliverUncovered(target, in: &session, memo: memo)
        }
        switch (shown.value.style, target) {
        case (.alert, .presentationButton(let index)):
            return alertButton(index, of: shown.value, in: &session)
        case (.alert, _):
            let buttons = shown.value.buttons.joined(separator: ", ")
            return [.error(.modalAlert, "an alert (\(shown.value.message ?? "")) is up: only its buttons \(buttons) can be tapped")]
        case (.popover, .presentationButton(let index)):
            return popoverButton(index, of: shown.value, in: &session)
        case (.popover, .insidePresentation):
            return [.unchanged(.insidePopover, "the tap landed inside the \(shown.value.content.rawValue) popover, on none of its buttons")]
        case (.popover, .unknown):
            return deliverUncovered(target, in: &session, memo: memo)
        case (.popover, .element(let element)) where shown.value.passthrough.contains(element.name):
            guard !session.interactionDisabled.contains(element.name) else {
                // It never takes the tap: the refusal, and the popover stays (nothing dismissed).
                return deliverUncovered(target, in: &session, memo: memo)
            }
            if element.name == shown.value.anchor?.element {
                return [dismiss(&session, reason: .toggle)]
            }
            if element.kind == .barButton {
                return [dismiss(&session, reason: .replaced)] + deliverUncovered(target, in: &session, memo: memo)
            }
            return [.unchanged(.passthrough, "'\(element.name)' passes the tap through the popover and does nothing with it")]
        case (.popover, _):
            return [dismiss(&session, reason: .outsideTap)]
        }
    }

    private static func resolve(_ name: String, in session: DeviceSession, memo: any PresentationMemo) -> Target {
        if name == ElementName.outside.rawValue { return .background }
        if let shown = session.shownPresentation,
           let index = shown.value.buttons.firstIndex(where: { sameIgnoringCase($0, name) }) {
            return .presentationButton(index)
        }
        let layout = session.heldLayout(in: memo)
        if let element = layout.value.element(name) ?? layout.value.row(named: name) { return .element(element) }
        if Catalogue.monsters.contains(where: { $0.name.lowercased() == name.lowercased() }) {
            let hint = layout.value.element("monster-list") != nil ? " (tap monster-list to show it)" : ""
            return .notOnScreen("'\(name)' is not on screen: the roster list is not shown in \(session.orientation.rawValue) (\(session.widthClass.rawValue) width)\(hint)")
        }
        if presentationButtonNames.contains(name.lowercased()) {
            return .notOnScreen("'\(name)' is not on screen: no popover or alert shows it")
        }
        if ScreenLayout.allElementNames.contains(name) {
            return .notOnScreen("'\(name)' is not on screen in \(session.orientation.rawValue) (\(session.widthClass.rawValue) width)")
        }
        return .unknown(name)
    }

    /// What is under `point` in the app's window (the presentation first), in `layout`.
    private static func hitTestWindow(_ point: Point, in session: DeviceSession, layout: ScreenLayout) -> Target {
        guard layout.bounds.contains(point) else { return .offWindow(point) }
        if let presentation = session.presentation {
            if let index = presentation.buttonFrames.firstIndex(where: { $0.contains(point) }) {
                return .presentationButton(index)
            }
            if presentation.frame.contains(point) { return .insidePresentation }
        }
        return layout.element(at: point).map(Target.element) ?? .background
    }

    /// A tap reaching its target with nothing presented in the way.
    private static func deliverUncovered(_ target: Target, in session: inout DeviceSession, memo: any PresentationMemo) -> [Effect] {
        switch target {
        case .unknown(let name):
            return [.error(
                .unknownElement,
                "'\(name)' is neither an element of the screen nor a button of the weapon picker (\(InputElement.weaponPickerButtons.joined(separator: ", ")))")]
        case .element(let element):
            if session.interactionDisabled.contains(element.name) {
                return [.error(.interactionDisabled, "'\(element.name)' has user interaction disabled: it never receives the tap")]
            }
            switch element.name {
            case "add":
                return [present(.add, from: Anchor(kind: .barButton, element: "add", rect: element.frame), in: &session, memo: memo)]
            case "color":
                return [present(.color, from: Anchor(kind: .barButton, element: "color", rect: element.frame), in: &session, memo: memo)]
            case "monster-list":
                return [present(.monsterList, from: Anchor(kind: .barButton, element: "monster-list", rect: element.frame), in: &session, memo: memo)]
            case "icon":
                return [present(.add, from: Anchor(kind: .rect, element: "icon", rect: element.frame), in: &session, memo: memo)]
            case "weapon", "notes":
                return [forwardTap(element.name, session, memo: memo)]
            default:
                if element.kind == .row, let title = element.title {
                    return [.forward(.rosterSelect(RosterSelect(monster: title)), to: MonsterBus.Service.roster)]
                }
                let what = element.title.map { " “\($0)”" } ?? ""
                if element.kind == .pane || element.kind == .bar {
                    return [.unchanged(.emptySpace, "the tap landed on the \(element.name) \(element.kind)\(what), on no control: nothing there responds to it")]
                }
                return [.unchanged(.noAction, "'\(element.name)' (\(element.kind)\(what)) does nothing when tapped")]
            }
        case .background:
            return [.unchanged(.emptySpace, "the tap landed on the window's background, with nothing presented: nothing there responds to it")]
        case .offWindow, .presentationButton, .insidePresentation, .notOnScreen:
            // Only reachable with a presentation up, or handled before delivery.
            return []
        }
    }

    /// Presents `content` from `anchor`: a popover where the device can, an alert elsewhere.
    private static func present(
        _ content: PresentationContent, from anchor: Anchor, in session: inout DeviceSession, memo: any PresentationMemo
    ) -> Effect {
        let popover = session.canPresentPopovers
        let presentation = session.present(content, from: anchor, memo: memo) { layout in
            popover ? PresentationFactory.popover(content, anchor: anchor, in: layout) : PresentationFactory.alert(content, in: layout)
        }
        return .publish(.presented(Presented(presentation: presentation, reason: ChangeReason.tap.rawValue)))
    }

    /// Takes the presentation off screen and says so.
    static func dismiss(_ session: inout DeviceSession, reason: DismissalReason, button: String? = nil, buttonIndex: Int? = nil) -> Effect {
        let shown = session.takePresentation()!
        return .publish(.dismissed(Dismissed(presentation: shown.value, reason: reason.rawValue, button: button, buttonIndex: buttonIndex)))
    }

    private static func popoverButton(_ index: Int, of presentation: Presentation, in session: inout DeviceSession) -> [Effect] {
        let title = presentation.buttons[index]
        if presentation.content == .monsterList {
            // A row of the Monster List: picked, and the popover is dismissed because of it.
            return [dismiss(&session, reason: .selection, button: title, buttonIndex: index)] + choice(title, of: presentation.content)
        }
        return [dismiss(&session, reason: .button, button: title, buttonIndex: index)] + choice(title, of: presentation.content)
    }

    private static func alertButton(_ index: Int, of presentation: Presentation, in session: inout DeviceSession) -> [Effect] {
        let title = presentation.buttons[index]
        let dismissal = dismiss(&session, reason: .button, button: title, buttonIndex: index)
        return index == presentation.cancelButtonIndex ? [dismissal] : [dismissal] + choice(title, of: presentation.content)
    }

    /// What choosing the button titled `title` asks for.
    private static func choice(_ title: String, of content: PresentationContent) -> [Effect] {
        switch content {
        case .add:
            return [.publish(.mediaAddRequested(MediaAddRequested(kind: title == "Photo" ? .photo : .audio)))]
        case .color:
            let color = NameColor.pickable.first { $0.title == title } ?? .black
            return [.forward(.colorSelected(ColorSelected(color: color)), to: MonsterBus.Service.roster)]
        case .monsterList:
            return [.forward(.rosterSelect(RosterSelect(monster: title)), to: MonsterBus.Service.roster)]
        }
    }

    private static func forwardTap(_ name: String, _ session: DeviceSession, memo: any PresentationMemo) -> Effect {
        .forward(.inputTap(InputTap(element: name, keyboard: session.heldLayout(in: memo).value.keyboard)), to: MonsterBus.Service.inputHandling)
    }

    /// Whether `a.lowercased() == b.lowercased()`: two ASCII texts (every button title and
    /// element name) compared byte by byte without making new strings, any other lowercased.
    static func sameIgnoringCase(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        let same: Bool? = a.withUTF8 { a in
            b.withUTF8 { b in
                guard a.allSatisfy({ $0 < 0x80 }), b.allSatisfy({ $0 < 0x80 }) else { return nil }
                return a.count == b.count && zip(a, b).allSatisfy { lower($0) == lower($1) }
            }
        }
        return same ?? (a.lowercased() == b.lowercased())
    }

    /// An ASCII byte in lower case.
    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
    }

    static func describe(_ point: Point) -> String { "(\(number(point.x)), \(number(point.y)))" }

    static func describe(_ rect: Rect) -> String {
        "\(number(rect.width))×\(number(rect.height)) pt at (\(number(rect.x)), \(number(rect.y)))"
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
