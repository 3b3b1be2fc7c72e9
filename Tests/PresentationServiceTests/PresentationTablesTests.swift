import Domain
@testable import PresentationCore
import Testing
import TestTiers
@testable import PresentationService

/// presentation-policy's tables: what they intern and cache, and that they stop growing at
/// their capacity while still answering what computing afresh gives.
@Suite(.tags(.unit)) struct PresentationTablesTests {
    @Test func equalValuesGetOneInternedUpToTheCapacityThenEachItsOwn() {
        let table = InterningTable<Int>(capacity: 2)
        let one = table.interned(1), two = table.interned(2)
        #expect(table.interned(1) === one && table.interned(2) === two)
        // Full: a third value is answered, equal, but not kept.
        let three = table.interned(3)
        #expect(three.value == 3)
        #expect(table.interned(3) !== three && table.interned(3) == three)
        // What was kept stays interned.
        #expect(table.interned(1) === one)
    }

    /// The screen cache answers the last key asked without hashing: asked in turn for screens
    /// alike and unlike, it gives what computing each one afresh gives.
    @Test func theScreenCacheGivesWhatIsComputedWhateverTheOrderAsked() {
        let cache = ScreenCache<Int, String>(capacity: 2)
        let ipad = Interned(DeviceProfile.ipad), iphone = Interned(DeviceProfile.iphone)
        var made = 0
        func value(_ profile: Interned<DeviceProfile>, _ orientation: Orientation, _ detail: Int) -> String {
            let key = LayoutKey(profile: profile, orientation: orientation, widthClass: .regular, mode: .fullScreen)
            return cache.value(of: key, detail: detail) {
                made += 1
                return "\(profile.value.idiom) \(orientation) \(detail)"
            }
        }
        let asks: [(Interned<DeviceProfile>, Orientation, Int)] = [
            (ipad, .portrait, 1), (ipad, .portrait, 1), (ipad, .landscape, 1), (ipad, .portrait, 1), (ipad, .portrait, 2),
            (iphone, .portrait, 1), (iphone, .portrait, 1), (ipad, .portrait, 1), (iphone, .landscape, 3), (iphone, .landscape, 3),
        ]
        for (profile, orientation, detail) in asks {
            #expect(value(profile, orientation, detail) == "\(profile.value.idiom) \(orientation) \(detail)")
        }
        // Two kept (the capacity), the others made each time they are asked.
        #expect(made == 7)
    }

    /// Keyed by the profile as interned: an equal profile held apart is another screen (made
    /// again, never mistaken for another's).
    @Test func theScreenCacheKeysByTheInternedProfile() {
        let cache = ScreenCache<Int, Int>(capacity: 8)
        let first = Interned(DeviceProfile.ipad), second = Interned(DeviceProfile.ipad)
        var made = 0
        for profile in [first, second, first, second] {
            _ = cache.value(of: LayoutKey(profile: profile, orientation: .portrait, widthClass: .regular, mode: .fullScreen), detail: 0) {
                made += 1
                return made
            }
        }
        #expect(made == 2)
    }

    @Test func aLayoutAndAPopoverAreMadeOncePerScreenAndEqualWhatIsComputed() throws {
        let tables = PresentationTables()
        let key = LayoutKey(profile: tables.interned(DeviceProfile.ipad), orientation: .landscape, widthClass: .regular, mode: .fullScreen)
        let computed = ScreenLayout(profile: .ipad, orientation: .landscape, widthClass: .regular, mode: .fullScreen)
        var layouts = 0
        let layout = tables.layout(of: key) { layouts += 1; return computed }
        #expect(tables.layout(of: key) { layouts += 1; return computed } === layout)
        #expect(layout.value == computed && layouts == 1)
        let button = try #require(computed.element("add"))
        let anchor = Anchor(kind: .barButton, element: "add", rect: button.frame)
        let popover = PresentationFactory.popover(.add, anchor: anchor, in: computed)
        var popovers = 0
        let shown = tables.presentation(of: .add, from: anchor, on: key) { popovers += 1; return popover }
        #expect(tables.presentation(of: .add, from: anchor, on: key) { popovers += 1; return popover } === shown)
        #expect(shown.value == popover && popovers == 1)
        // The popover shown is the one interned: a session showing an equal one holds it too.
        #expect(tables.interned(popover) === shown)
    }
}
