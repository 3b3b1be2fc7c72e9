import Domain

/// The wide and half sides of Split View: how wide the app's window is and its width class, from
/// Apple's multitasking size-class table for the 768×1024-pt iPad (the shipped `ipad` and
/// `ipad-legacy` profiles). Landscape (1024 pt): 2/3 is 694 pt and regular, 1/2 is 507 pt and
/// compact; portrait (768 pt): 2/3 is 438 pt and compact, and there is no 1/2. The other side and
/// a 10-pt divider make up the screen (694 + 10 + 320 = 1024). docs/multitasking.md has the table.
public enum SplitView {
    /// The divider between the two apps, in points.
    public static let dividerWidth = 10.0
    /// The narrow side, in points (`split-view`, as Slide Over).
    public static let narrowWidth = ScreenLayout.slideOverWidth

    /// The window of `mode` on a screen `screen` wide (in the current orientation) in
    /// `orientation`: its width and width class; `nil` for a mode whose size does not come from
    /// Split View's table. Another iPad screen gets the same classes, with the same narrow side
    /// and divider (no table is published for a screen that is not a model's).
    public static func window(_ mode: WindowMode, screenWidth: Double, orientation: Orientation) -> (width: Double, widthClass: SizeClass)? {
        let wide = max(0, screenWidth - narrowWidth - dividerWidth)
        switch (mode, orientation) {
        case (.splitViewWide, .landscape): return (wide, .regular)
        case (.splitViewWide, .portrait), (.splitViewHalf, .portrait): return (wide, .compact)
        case (.splitViewHalf, .landscape): return (max(0, (screenWidth - dividerWidth) / 2).rounded(.down), .compact)
        default: return nil
        }
    }

    /// The width class of `mode`'s window on a device with `profile` in `orientation`; `nil` for a
    /// mode whose class does not come from Split View's table, or an iPhone.
    public static func widthClass(of mode: WindowMode, profile: DeviceProfile, orientation: Orientation) -> SizeClass? {
        guard profile.idiom == .pad else { return nil }
        let screenWidth = orientation == .portrait ? profile.screen.width : profile.screen.height
        return window(mode, screenWidth: screenWidth, orientation: orientation)?.widthClass
    }

    /// Whether `mode` exists in `orientation`: Split View has no half in portrait.
    public static func exists(_ mode: WindowMode, in orientation: Orientation) -> Bool {
        !(mode == .splitViewHalf && orientation == .portrait)
    }
}
