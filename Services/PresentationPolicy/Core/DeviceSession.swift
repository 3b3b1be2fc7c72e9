import Domain

/// What presentation-policy keeps for one device: small enums, and references to the profile and
/// the presentation on screen, which are shared by every device holding the same (`Shared`):
/// about 32 bytes per device plus its entry in the core's dictionary.
public struct DeviceSession: Sendable, Equatable {
    /// The profiles of the devices, shared by value.
    static let profiles = Interner<DeviceProfile>(capacity: 256)
    /// The presentations on screen, shared by value (they repeat for the same hardware and layout).
    static let presentations = Interner<Presentation>(capacity: 4096)

    private var sharedProfile: Shared<DeviceProfile>
    private var sharedPresentation: Shared<Presentation>?

    /// The hardware the device was first described with; a later profile must match it.
    public var profile: DeviceProfile { sharedProfile.value }
    /// The orientation now: the profile's at first, then changed by `device.rotate`.
    public var orientation: Orientation
    /// The window's width class now: the profile's at first, then changed by `device.resize`.
    public var widthClass: SizeClass
    /// Where the window is on the screen: the profile's width class decides at first (a compact
    /// iPad starts in Slide Over), then `device.resize`.
    public var mode: WindowMode
    /// The popover or alert on screen, if any (one at a time).
    public var presentation: Presentation? {
        get { sharedPresentation?.value }
        set { sharedPresentation = newValue.map(Self.presentations.shared) }
    }
    /// The presentation on screen as it is held (shared), if any: read in place, where a tap only
    /// looks at a few of its fields, rather than copied out by `presentation` (a retain of each).
    var shownPresentation: Shared<Presentation>? { sharedPresentation }
    /// Elements whose user interaction is disabled.
    public var interactionDisabled: Set<String> = []

    /// A device as it starts, described by `profile`.
    public init(profile: DeviceProfile) {
        sharedProfile = Self.profiles.shared(profile)
        orientation = profile.orientation
        widthClass = profile.widthClass
        mode = profile.idiom == .pad && profile.widthClass == .compact ? .slideOver : .fullScreen
    }

    /// The current layout (computed once per profile, orientation, width class and mode in
    /// the process: every tap needs it, and devices of the same hardware share it).
    public var layout: ScreenLayout { heldLayout.value }

    /// The current layout as the cache holds it: read in place where a tap only looks an element up.
    var heldLayout: Shared<ScreenLayout> {
        Self.layouts.value(profile: sharedProfile, orientation: orientation, widthClass: widthClass, mode: mode, detail: nil) {
            Shared(ScreenLayout(profile: profile, orientation: orientation, widthClass: widthClass, mode: mode))
        }
    }

    /// The layouts computed so far (nothing more than the screen: no detail).
    static let layouts = ScreenCache<Never?, Shared<ScreenLayout>>(capacity: 1024)
    /// The presentations shown so far, by screen, content and anchor.
    static let shown = ScreenCache<ShownKey, Shared<Presentation>>(capacity: 4096)

    /// What a presentation is made of, besides the screen.
    struct ShownKey: Hashable, Sendable {
        let content: PresentationContent
        let anchor: Anchor

        /// The anchor's element only (each shows one content; `==` compares the rest).
        func hash(into hasher: inout Hasher) { hasher.combine(anchor.element) }
    }

    /// Puts on screen what `make` makes of the current layout for `content` from `anchor`:
    /// made and interned once per screen, content and anchor (the same popover comes back on
    /// every tap of the same button), and returns it.
    mutating func present(
        _ content: PresentationContent, from anchor: Anchor, _ make: (ScreenLayout) -> Presentation
    ) -> Presentation {
        let shared = Self.shown.value(
            profile: sharedProfile, orientation: orientation, widthClass: widthClass, mode: mode,
            detail: ShownKey(content: content, anchor: anchor)) { Self.presentations.shared(make(layout)) }
        sharedPresentation = shared
        return shared.value
    }

    /// Takes the presentation off screen and returns it as it was held.
    mutating func takePresentation() -> Shared<Presentation>? {
        defer { sharedPresentation = nil }
        return sharedPresentation
    }

    /// Whether the `+` button gets a popover: an iPad, with an OS that has popovers, in a
    /// regular-width window. Everywhere else it gets an alert — a regular-width iPhone (a Plus or
    /// Max in landscape) too: the tutorial decides by idiom (`UI_USER_INTERFACE_IDIOM()`).
    public var canPresentPopovers: Bool {
        profile.idiom == .pad && profile.os >= OSVersion.firstWithPopovers && widthClass == .regular
    }

    /// The state as a message body.
    public var message: DeviceState {
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
    /// the shared profile and presentation as the values they hold, shared again when read.
    public mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        var profile = self.profile
        try fields.field("profile", &profile)
        if profile != self.profile { sharedProfile = Self.profiles.shared(profile) }
        try fields.field("orientation", &orientation)
        try fields.field("widthClass", &widthClass)
        try fields.field("mode", &mode)
        var presentation = self.presentation
        try fields.field("presentation", &presentation)
        if presentation != self.presentation { self.presentation = presentation }
        try fields.field("interactionDisabled", &interactionDisabled)
    }
}
