import Domain

/// Rotation and resizing: the window changes under whatever is presented.
enum Rotation {
    /// Turns the device. A visible popover is hidden when rotation starts and, when it ends,
    /// presented again at its anchor — or dismissed when the anchor is gone or was a rectangle.
    /// An alert never leaves the screen: it is re-centred (`presentation.moved`). The layout
    /// published carries the keyboard, from which input-handling gives the input view its new width. Turning to the orientation the device has changes nothing.
    static func rotate(to orientation: Orientation, in session: inout DeviceSession, memo: any PresentationMemo) -> [Effect] {
        guard orientation != session.orientation else {
            return [.unchanged(.sameOrientation, "the device is already in \(orientation.rawValue): nothing turned")]
        }
        var effects: [Effect] = []
        if let presentation = session.presentation, presentation.style == .popover {
            effects.append(.publish(.hidden(Hidden(presentation: presentation, reason: DismissalReason.rotation.rawValue))))
        }
        session.orientation = orientation
        // The wide and half sides of Split View change width class with the orientation; a
        // popover cannot stay in a window turned compact.
        var turnedCompact = false
        if let widthClass = SplitView.widthClass(of: session.mode, profile: session.profile, orientation: orientation), widthClass != session.widthClass {
            session.widthClass = widthClass
            turnedCompact = widthClass == .compact
        }
        let layout = session.layout(in: memo)
        effects.append(.publish(.deviceLayout(layout.message(reason: .rotation))))
        if turnedCompact, session.presentation?.style == .popover {
            effects.append(Taps.dismiss(&session, reason: .sizeClass))
        } else if let replaced = placeAgain(in: &session, layout: layout, reason: .rotation, memo: memo) {
            effects.append(replaced)
        }
        return effects
    }

    /// Moves an iPad's window: full screen (regular width), Slide Over or Split View's narrow side
    /// (compact), Split View's wide side or half (the class `SplitView` gives). A popover cannot
    /// stay in a compact window and is dismissed; an alert stays up, re-centred.
    static func resize(_ resize: Resize, in session: inout DeviceSession, memo: any PresentationMemo) -> [Effect] {
        if session.profile.idiom == .phone {
            return [.error(.unsupported, "an iPhone's window always fills its screen: its width class comes with the model and orientation (describe a Plus or Max in landscape with --width regular)")]
        }
        let mode = resize.mode ?? (resize.width == .compact ? .slideOver : .fullScreen)
        guard SplitView.exists(mode, in: session.orientation) else {
            return [.error(.badResize, "Split View has no half in portrait on an iPad of this size: split-view-wide (2/3) or split-view (1/3) instead, or turn it to landscape first")]
        }
        // The wide and half sides take the class Apple's table gives for the screen and
        // orientation, whatever the message says; the other modes have one class each.
        let width = SplitView.widthClass(of: mode, profile: session.profile, orientation: session.orientation) ?? resize.width
        guard mode.sizedBySplitView || mode.widthClass == resize.width else {
            return [.error(.badResize, "\(mode.rawValue) is \(mode.widthClass.rawValue) width, not \(resize.width.rawValue)")]
        }
        guard mode != session.mode || width != session.widthClass else {
            return [.unchanged(.sameWidth, "the window is already \(mode.rawValue) (\(width.rawValue) width): nothing moved")]
        }
        var effects: [Effect] = []
        if width == .compact, session.presentation?.style == .popover {
            effects.append(Taps.dismiss(&session, reason: .sizeClass))
        }
        session.widthClass = width
        session.mode = mode
        let layout = session.layout(in: memo)
        effects.append(.publish(.deviceLayout(layout.message(reason: .resize))))
        if let replaced = placeAgain(in: &session, layout: layout, reason: .resize, memo: memo) { effects.append(replaced) }
        return effects
    }

    /// Places the presentation on screen again in `layout`, or dismisses it if it cannot be.
    /// An alert that stayed where it was says nothing. What is placed again is interned by `memo`.
    private static func placeAgain(
        in session: inout DeviceSession, layout: ScreenLayout, reason: ChangeReason, memo: any PresentationMemo
    ) -> Effect? {
        guard let presentation = session.presentation else { return nil }
        guard let again = PresentationFactory.replace(presentation, in: layout) else {
            return Taps.dismiss(&session, reason: presentation.anchor?.kind == .rect ? .rectAnchor : .anchorGone)
        }
        session.show(again, memo: memo)
        if presentation.style == .alert {
            return again == presentation ? nil : .publish(.moved(Moved(presentation: again, reason: reason.rawValue)))
        }
        return .publish(.presented(Presented(presentation: again, reason: reason.rawValue)))
    }
}
