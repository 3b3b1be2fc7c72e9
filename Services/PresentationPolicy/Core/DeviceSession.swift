import MonsterKit

/// What presentation-policy keeps for one device.
public struct DeviceSession: Sendable, Equatable, Codable {
    /// The hardware the device was first described with; a later profile must match it.
    public let profile: DeviceProfile
    /// The orientation now: the profile's at first, then changed by `device.rotate`.
    public var orientation: Orientation
    /// The window's width class now: the profile's at first, then changed by `device.resize`.
    public var widthClass: SizeClass
    /// Where the window is on the screen: the profile's width class decides at first (a compact
    /// iPad starts in Slide Over), then `device.resize`.
    public var mode: WindowMode
    /// The popover or alert on screen, if any (one at a time).
    public var presentation: Presentation?
    /// Elements whose user interaction is disabled.
    public var interactionDisabled: Set<String> = []

    /// A device as it starts, described by `profile`.
    public init(profile: DeviceProfile) {
        self.profile = profile
        orientation = profile.orientation
        widthClass = profile.widthClass
        mode = profile.idiom == .pad && profile.widthClass == .compact ? .slideOver : .fullScreen
    }

    /// The current layout.
    public var layout: ScreenLayout {
        ScreenLayout(profile: profile, orientation: orientation, widthClass: widthClass, mode: mode)
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
