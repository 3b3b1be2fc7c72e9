import Domain

/// What the core asks of the tables its owner keeps for it (`PresentationCore(memo:)`): values
/// many devices hold alike, interned, and values that are pure functions of a device's screen
/// (layouts, popovers), computed once. The core holds no table and no global state: where the
/// tables live, and how far they grow, is the owner's to say (presentation-policy's service:
/// `PresentationTables`). Every answer equals what computing it afresh gives.
public protocol PresentationMemo: AnyObject, Sendable {
    /// `profile`, as every device described alike holds it.
    func interned(_ profile: DeviceProfile) -> Interned<DeviceProfile>
    /// `presentation`, as every device showing the same holds it.
    func interned(_ presentation: Presentation) -> Interned<Presentation>
    /// The layout of the screen `key` (what `make` makes), made once per screen.
    func layout(of key: LayoutKey, make: () -> ScreenLayout) -> Interned<ScreenLayout>
    /// What the screen `key` presents for `content` from `anchor` (what `make` makes, interned),
    /// made once per screen, content and anchor: the same popover comes back on every tap of the
    /// same button.
    func presentation(
        of content: PresentationContent, from anchor: Anchor, on key: LayoutKey, make: () -> Presentation
    ) -> Interned<Presentation>
}

/// What a device's layout is a pure function of — its profile (as interned), orientation, width
/// class and window mode — and so what a memo keeps layouts and popovers by.
public struct LayoutKey: Sendable {
    /// The profile, as the device's session holds it: devices of the same hardware hold the same.
    public let profile: Interned<DeviceProfile>
    /// The orientation now.
    public let orientation: Orientation
    /// The window's width class now.
    public let widthClass: SizeClass
    /// Where the window is on the screen.
    public let mode: WindowMode
}
