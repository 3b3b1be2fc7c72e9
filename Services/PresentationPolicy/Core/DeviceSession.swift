import Domain

/// What presentation-policy keeps for one device: small enums, and references to the profile and
/// the presentation on screen as the core's memo interned them (every device holding the same
/// holds one `Interned`): about 32 bytes per device plus its entry in the core's dictionary.
public struct DeviceSession: Sendable, Equatable {
    private var heldProfile: Interned<DeviceProfile>
    private var heldPresentation: Interned<Presentation>?

    /// The hardware the device was first described with; a later profile must match it.
    public var profile: DeviceProfile { heldProfile.value }
    /// The orientation now: the profile's at first, then changed by `device.rotate`.
    public var orientation: Orientation
    /// The window's width class now: the profile's at first, then changed by `device.resize`.
    public var widthClass: SizeClass
    /// Where the window is on the screen: the profile's width class decides at first (a compact
    /// iPad starts in Slide Over), then `device.resize`.
    public var mode: WindowMode
    /// The popover or alert on screen, if any (one at a time). One set here is this session's
    /// own; the core's rules show what their memo interned (`show(_:memo:)`).
    public var presentation: Presentation? {
        get { heldPresentation?.value }
        set { heldPresentation = newValue.map(Interned.init) }
    }
    /// The presentation on screen as it is held, if any: read in place, where a tap only looks
    /// at a few of its fields, rather than copied out by `presentation` (a retain of each).
    var shownPresentation: Interned<Presentation>? { heldPresentation }
    /// Elements whose user interaction is disabled.
    public var interactionDisabled: Set<String> = []

    /// A device as it starts, described by `profile` as the core's memo holds it.
    init(profile: Interned<DeviceProfile>) {
        heldProfile = profile
        orientation = profile.value.orientation
        widthClass = profile.value.widthClass
        mode = profile.value.idiom == .pad && profile.value.widthClass == .compact ? .slideOver : .fullScreen
    }

    /// A device as it starts, described by `profile` (held by this session alone).
    public init(profile: DeviceProfile) { self.init(profile: Interned(profile)) }

    /// What the current layout is a function of.
    var layoutKey: LayoutKey { LayoutKey(profile: heldProfile, orientation: orientation, widthClass: widthClass, mode: mode) }

    /// The current layout, computed: for a reader of the session (the core's rules read the one
    /// their memo keeps, `layout(in:)`).
    public var layout: ScreenLayout { ScreenLayout(profile: profile, orientation: orientation, widthClass: widthClass, mode: mode) }

    /// The current layout as `memo` holds it (computed once per profile, orientation, width class
    /// and mode: every tap needs it, and devices of the same hardware share it): read in place
    /// where a tap only looks an element up.
    func heldLayout(in memo: any PresentationMemo) -> Interned<ScreenLayout> {
        memo.layout(of: layoutKey) { layout }
    }

    /// The current layout, as `memo` holds it.
    func layout(in memo: any PresentationMemo) -> ScreenLayout { heldLayout(in: memo).value }

    /// Puts on screen what `make` makes of the current layout for `content` from `anchor`, as
    /// `memo` keeps it (made once per screen, content and anchor), and returns it.
    mutating func present(
        _ content: PresentationContent, from anchor: Anchor, memo: any PresentationMemo, _ make: (ScreenLayout) -> Presentation
    ) -> Presentation {
        let held = memo.presentation(of: content, from: anchor, on: layoutKey) { make(layout(in: memo)) }
        heldPresentation = held
        return held.value
    }

    /// Puts `presentation` on screen, as `memo` interns it.
    mutating func show(_ presentation: Presentation, memo: any PresentationMemo) {
        heldPresentation = memo.interned(presentation)
    }

    /// Takes the presentation off screen and returns it as it was held.
    mutating func takePresentation() -> Interned<Presentation>? {
        defer { heldPresentation = nil }
        return heldPresentation
    }

    /// This session with its profile and presentation as `memo` interns them (a session read
    /// from a snapshot holds its own).
    func interned(by memo: any PresentationMemo) -> DeviceSession {
        var session = self
        session.heldProfile = memo.interned(profile)
        session.heldPresentation = heldPresentation.map { memo.interned($0.value) }
        return session
    }

    /// Whether the `+` button gets a popover: an iPad, with an OS that has popovers, in a
    /// regular-width window. Everywhere else it gets an alert — a regular-width iPhone (a Plus or
    /// Max in landscape) too: the tutorial decides by idiom (`UI_USER_INTERFACE_IDIOM()`).
    public var canPresentPopovers: Bool {
        profile.idiom == .pad && profile.os >= OSVersion.firstWithPopovers && widthClass == .regular
    }

    /// The state as a message body (its layout computed).
    public var message: DeviceState { message(layout: layout) }

    /// The state as a message body, in `layout` (the current one).
    func message(layout: ScreenLayout) -> DeviceState {
        DeviceState(
            profile: profile, layout: layout.message(), presentation: presentation,
            popoverArrowDirection: presentation?.style == .popover ? presentation!.arrowDirection : .unknown,
            interactionDisabled: interactionDisabled.sorted())
    }

    /// Whether `other` describes the same hardware (orientation and width may differ: they change).
    func sameHardware(as other: DeviceProfile) -> Bool {
        profile.idiom == other.idiom && profile.screen == other.screen && profile.os == other.os
    }
}

extension DeviceSession: FieldSet {
    /// A device as it starts: what reading a snapshot starts from.
    public static var placeholder: DeviceSession { DeviceSession(profile: .placeholder) }

    /// The fields of a device's snapshot (for another instance), in the order they are written:
    /// the interned profile and presentation as the values they hold, read into values of the
    /// session's own (the core interns them again when it is given the session: `restore`).
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        var profile = self.profile
        try fields.field("profile", &profile)
        if profile != self.profile { heldProfile = Interned(profile) }
        try fields.field("orientation", &orientation)
        try fields.field("widthClass", &widthClass)
        try fields.field("mode", &mode)
        var presentation = self.presentation
        try fields.field("presentation", &presentation)
        if presentation != self.presentation { self.presentation = presentation }
        try fields.field("interactionDisabled", &interactionDisabled)
    }
}
