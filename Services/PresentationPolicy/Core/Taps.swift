import MonsterKit

/// How a tap is resolved and delivered, UIKit style: an alert is modal; a popover is dismissed
/// by a tap outside it (the tap goes no further) unless the tap lands on one of its passthrough
/// views; taps on the keyboard's window (input views) are not ours and go to input-handling.
enum Taps {
    /// What a tap landed on.
    private enum Target {
        /// A button of the presentation on screen, by index.
        case presentationButton(Int)
        /// Inside the presentation, on no button.
        case insidePresentation
        /// An element of the window's layout.
        case element(LayoutElement)
        /// Nothing: the window's background (`outside`).
        case background
        /// A name this service does not know: input-handling's (the input view's buttons).
        case inputWindow(String)
        /// A name this service knows, that is not on screen now.
        case notOnScreen(String)
    }

    /// The names of every button a presentation can have, as taps spell them.
    private static let presentationButtonNames: Set<String> = Set(
        [PresentationContent.add, .color, .monsterList].flatMap(PresentationFactory.alertButtons).map { $0.lowercased() })

    /// Handles a tap on `session`'s device.
    static func handle(_ tap: Tap, in session: inout DeviceSession) -> [Effect] {
        let target: Target
        switch (tap.element, tap.point) {
        case (let name?, nil): target = resolve(name, in: session)
        case (nil, let point?): target = hitTest(point, in: session)
        default: return [.error("bad-tap", "a tap names either an element or a point")]
        }
        if case .notOnScreen(let why) = target { return [.error("no-such-element", why)] }

        guard let presentation = session.presentation else {
            return deliver(target, in: &session)
        }
        switch (presentation.style, target) {
        case (.alert, .presentationButton(let index)):
            return alertButton(index, of: presentation, in: &session)
        case (.alert, _):
            let buttons = presentation.buttons.joined(separator: ", ")
            return [.error("modal-alert", "an alert (\(presentation.message ?? "")) is up: only its buttons \(buttons) can be tapped")]
        case (.popover, .presentationButton(let index)):
            return popoverButton(index, of: presentation, in: &session)
        case (.popover, .insidePresentation):
            return []
        case (.popover, .inputWindow):
            return deliver(target, in: &session)
        case (.popover, .element(let element)) where presentation.passthrough.contains(element.name):
            if element.name == presentation.anchor?.element {
                return [dismiss(&session, reason: "toggle")]
            }
            if element.kind == "barButton" {
                return [dismiss(&session, reason: "replaced")] + deliver(target, in: &session)
            }
            return []
        case (.popover, _):
            return [dismiss(&session, reason: "outside-tap")]
        }
    }

    private static func resolve(_ name: String, in session: DeviceSession) -> Target {
        if name == "outside" { return .background }
        if let presentation = session.presentation,
           let index = presentation.buttons.firstIndex(where: { $0.lowercased() == name.lowercased() }) {
            return .presentationButton(index)
        }
        let layout = session.layout
        if let element = layout.element(name) { return .element(element) }
        if presentationButtonNames.contains(name.lowercased()) {
            return .notOnScreen("'\(name)' is not on screen: no popover or alert shows it")
        }
        if ScreenLayout.allElementNames.contains(name) {
            return .notOnScreen("'\(name)' is not on screen in \(session.orientation.rawValue) (\(session.widthClass.rawValue) width)")
        }
        return .inputWindow(name)
    }

    private static func hitTest(_ point: Point, in session: DeviceSession) -> Target {
        if let presentation = session.presentation {
            if let index = presentation.buttonFrames.firstIndex(where: { $0.contains(point) }) {
                return .presentationButton(index)
            }
            if presentation.frame.contains(point) { return .insidePresentation }
        }
        return session.layout.element(at: point).map(Target.element) ?? .background
    }

    /// A tap reaching its target with nothing presented in the way.
    private static func deliver(_ target: Target, in session: inout DeviceSession) -> [Effect] {
        switch target {
        case .inputWindow(let name):
            return [forwardTap(name, session)]
        case .element(let element):
            if session.interactionDisabled.contains(element.name) {
                return [.error("interaction-disabled", "'\(element.name)' has user interaction disabled: it never receives the tap")]
            }
            switch element.name {
            case "add":
                return [present(.add, from: Anchor(kind: .barButton, element: "add", rect: element.frame), in: &session)]
            case "color":
                return [present(.color, from: Anchor(kind: .barButton, element: "color", rect: element.frame), in: &session)]
            case "monster-list":
                return [present(.monsterList, from: Anchor(kind: .barButton, element: "monster-list", rect: element.frame), in: &session)]
            case "icon":
                return [present(.add, from: Anchor(kind: .rect, element: "icon", rect: element.frame), in: &session)]
            case "weapon", "notes":
                return [forwardTap(element.name, session)]
            default:
                if element.kind == "row", let title = element.title {
                    return Selection.select(title, in: &session)
                }
                return []
            }
        default:
            return []
        }
    }

    /// Presents `content` from `anchor`: a popover where the device can, an alert elsewhere.
    private static func present(_ content: PresentationContent, from anchor: Anchor, in session: inout DeviceSession) -> Effect {
        let layout = session.layout
        let presentation = session.canPresentPopovers
            ? PresentationFactory.popover(content, anchor: anchor, in: layout)
            : PresentationFactory.alert(content, in: layout)
        session.presentation = presentation
        return .publish(.presented(Presented(presentation: presentation, reason: "tap")))
    }

    /// Takes the presentation off screen and says so.
    static func dismiss(_ session: inout DeviceSession, reason: String, button: String? = nil, buttonIndex: Int? = nil) -> Effect {
        let presentation = session.presentation!
        session.presentation = nil
        return .publish(.dismissed(Dismissed(presentation: presentation, reason: reason, button: button, buttonIndex: buttonIndex)))
    }

    private static func popoverButton(_ index: Int, of presentation: Presentation, in session: inout DeviceSession) -> [Effect] {
        let title = presentation.buttons[index]
        if presentation.content == .monsterList {
            return Selection.select(title, in: &session)
        }
        return [dismiss(&session, reason: "button", button: title, buttonIndex: index)] + choice(title, of: presentation.content)
    }

    private static func alertButton(_ index: Int, of presentation: Presentation, in session: inout DeviceSession) -> [Effect] {
        let title = presentation.buttons[index]
        let dismissal = dismiss(&session, reason: "button", button: title, buttonIndex: index)
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

    private static func forwardTap(_ name: String, _ session: DeviceSession) -> Effect {
        .forward(.inputTap(InputTap(element: name, keyboard: session.layout.keyboard)), to: MonsterBus.Service.inputHandling)
    }
}
