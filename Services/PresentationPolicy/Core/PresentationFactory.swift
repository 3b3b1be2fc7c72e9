import Domain

/// Builds the presentations of the app: what each shows, at which size, and where.
public enum PresentationFactory {
    /// The `+` popover's preferred content size (the tutorial's `PopoverContentViewController`).
    public static let addContentSize = Size(width: 200, height: 125)
    /// The colour picker's preferred content size (the tutorial's `ColorPickerViewController`).
    public static let colorContentSize = Size(width: 150, height: 140)
    /// The roster in a popover: six rows of 44 pt.
    public static let monsterListContentSize = Size(width: 320, height: 264)
    /// A UIAlertView's width.
    public static let alertWidth = 270.0
    /// An alert's height above its buttons (title and message), in points.
    public static let alertMessageHeight = 68.0
    /// The height each stacked alert button adds, in points.
    public static let alertButtonHeight = 44.0

    /// The buttons a content shows in a popover.
    public static func popoverButtons(_ content: PresentationContent) -> [String] {
        switch content {
        case .add: ["Photo", "Audio"]
        case .color: NameColor.pickable.map(\.title)
        case .monsterList: Catalogue.names
        }
    }

    /// The buttons of the alert used where a popover cannot be: Cancel first (index 0).
    public static func alertButtons(_ content: PresentationContent) -> [String] {
        ["Cancel"] + popoverButtons(content)
    }

    /// The alert's message.
    public static func alertMessage(_ content: PresentationContent) -> String {
        switch content {
        case .add: "Add…"
        case .color: "Choose Color"
        case .monsterList: "Monsters"
        }
    }

    /// The popover's preferred content size.
    public static func contentSize(_ content: PresentationContent) -> Size {
        switch content {
        case .add: addContentSize
        case .color: colorContentSize
        case .monsterList: monsterListContentSize
        }
    }

    /// `content` in a popover from `anchor`, permitted arrows Any, placed in `layout`.
    public static func popover(_ content: PresentationContent, anchor: Anchor, in layout: ScreenLayout) -> Presentation {
        let size = contentSize(content)
        let geometry = PopoverGeometry(anchor: anchor.rect, contentSize: size, permitted: .any, window: layout.window)
        let frame = geometry.frame
        let buttons = popoverButtons(content)
        // Buttons where the content puts them, cut to the body when the body had to shrink.
        let buttonFrames: [Rect] = buttons.indices.map { index in
            let laidOut = switch content {
            case .add:
                Rect(x: frame.x + 20, y: frame.y + 20 + Double(index) * 50, width: 160, height: 37)
            case .color, .monsterList:
                Rect(x: frame.x, y: frame.y + Double(index) * 44, width: frame.width, height: 44)
            }
            return laidOut.clipped(to: frame)
        }
        return Presentation(
            style: .popover, content: content, message: nil, buttons: buttons, buttonFrames: buttonFrames,
            cancelButtonIndex: nil, anchor: anchor, permittedArrowDirections: .any,
            arrowDirection: geometry.arrowDirection, arrowTip: geometry.arrowTip, frame: frame,
            contentSize: size, passthrough: anchor.kind == .barButton ? layout.navigationBarNames : [])
    }

    /// `content` as an alert centred in `layout`'s window; Cancel is index 0 and sits at the bottom.
    public static func alert(_ content: PresentationContent, in layout: ScreenLayout) -> Presentation {
        let buttons = alertButtons(content)
        let height = alertMessageHeight + Double(buttons.count) * alertButtonHeight
        let frame = Rect(
            x: (layout.window.width - alertWidth) / 2, y: (layout.window.height - height) / 2,
            width: alertWidth, height: height)
        // Other buttons stack under the message in order; Cancel is the last row.
        let rows = Array(buttons.indices.dropFirst()) + [0]
        var buttonFrames = [Rect](repeating: frame, count: buttons.count)
        for (row, index) in rows.enumerated() {
            buttonFrames[index] = Rect(
                x: frame.x, y: frame.y + alertMessageHeight + Double(row) * alertButtonHeight,
                width: alertWidth, height: alertButtonHeight)
        }
        return Presentation(
            style: .alert, content: content, message: alertMessage(content), buttons: buttons,
            buttonFrames: buttonFrames, cancelButtonIndex: 0, anchor: nil, permittedArrowDirections: nil,
            arrowDirection: .unknown, arrowTip: nil, frame: frame, contentSize: frame.size, passthrough: [])
    }

    /// The same presentation placed again in `layout` (after a rotation or resize), if its anchor
    /// still exists there: alerts are re-centred, bar-button popovers follow their button.
    /// `nil` when the popover's anchor is gone or was a rectangle.
    public static func replace(_ presentation: Presentation, in layout: ScreenLayout) -> Presentation? {
        guard let anchor = presentation.anchor else { return alert(presentation.content, in: layout) }
        guard anchor.kind == .barButton, let element = layout.element(anchor.element) else { return nil }
        return popover(presentation.content, anchor: Anchor(kind: .barButton, element: element.name, rect: element.frame), in: layout)
    }
}
