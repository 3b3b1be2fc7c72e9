import Domain
import PresentationCore

/// presentation-policy's tables, the one place its process keeps what devices hold alike and
/// what a screen computes: handed to its core (`PresentationCore(memo:)`) by the handler that
/// owns both. Each table has a capacity, so that a client inventing ever new profiles cannot
/// grow them without bound.
public final class PresentationTables: PresentationMemo {
    /// The profiles of the devices, interned by value.
    private let profiles = InterningTable<DeviceProfile>(capacity: 256)
    /// The presentations on screen, interned by value (they repeat for the same hardware and layout).
    private let presentations = InterningTable<Presentation>(capacity: 4096)
    /// The layouts computed so far (nothing more than the screen: no detail).
    private let layouts = ScreenCache<Never?, Interned<ScreenLayout>>(capacity: 1024)
    /// The presentations shown so far, by screen, content and anchor.
    private let shown = ScreenCache<ShownKey, Interned<Presentation>>(capacity: 4096)

    /// What a presentation is made of, besides the screen.
    private struct ShownKey: Hashable, Sendable {
        let content: PresentationContent
        let anchor: Anchor

        /// The anchor's element only (each shows one content; `==` compares the rest).
        func hash(into hasher: inout Hasher) { hasher.combine(anchor.element) }
    }

    /// Empty tables.
    public init() {}

    /// `profile`, interned.
    public func interned(_ profile: DeviceProfile) -> Interned<DeviceProfile> { profiles.interned(profile) }

    /// `presentation`, interned.
    public func interned(_ presentation: Presentation) -> Interned<Presentation> { presentations.interned(presentation) }

    /// The layout of `key`, made by `make` once.
    public func layout(of key: LayoutKey, make: () -> ScreenLayout) -> Interned<ScreenLayout> {
        layouts.value(of: key, detail: nil) { Interned(make()) }
    }

    /// What `key` presents for `content` from `anchor`, made by `make` and interned once.
    public func presentation(
        of content: PresentationContent, from anchor: Anchor, on key: LayoutKey, make: () -> Presentation
    ) -> Interned<Presentation> {
        shown.value(of: key, detail: ShownKey(content: content, anchor: anchor)) { presentations.interned(make()) }
    }
}
