import Domain
import Foundation
import Testing
import Wire
@testable import PresentationCore
import TestTiers

/// Issue 15: a device's session is small — it shares its profile and the presentation on screen
/// with every device holding the same — and behaves as before: same values, same snapshot JSON.
@Suite(.tags(.unit)) struct CompactSessionTests {
    @Test func devicesAlikeShareTheirProfileAndPresentation() throws {
        var core = PresentationCore()
        _ = core.handle(device: "a", action: .tap(Tap(element: "add", profile: .ipad)))
        _ = core.handle(device: "b", action: .tap(Tap(element: "add", profile: .ipad)))
        let a = try #require(core.devices["a"]), b = try #require(core.devices["b"])
        #expect(a.presentation != nil && a.presentation == b.presentation)
        #expect(a == b)
        #expect(MemoryLayout<DeviceSession>.size <= 40)
    }

    /// The screen cache answers the last key asked without hashing: asked in turn for screens
    /// alike and unlike, it gives what computing each one afresh gives.
    @Test func theScreenCacheGivesWhatIsComputedWhateverTheOrderAsked() {
        let cache = ScreenCache<Int, String>(capacity: 2)
        let ipad = Shared(DeviceProfile.ipad), iphone = Shared(DeviceProfile.iphone)
        var made = 0
        func value(_ profile: Shared<DeviceProfile>, _ orientation: Orientation, _ detail: Int) -> String {
            cache.value(profile: profile, orientation: orientation, widthClass: .regular, mode: .fullScreen, detail: detail) {
                made += 1
                return "\(profile.value.idiom) \(orientation) \(detail)"
            }
        }
        let asks: [(Shared<DeviceProfile>, Orientation, Int)] = [
            (ipad, .portrait, 1), (ipad, .portrait, 1), (ipad, .landscape, 1), (ipad, .portrait, 1), (ipad, .portrait, 2),
            (iphone, .portrait, 1), (iphone, .portrait, 1), (ipad, .portrait, 1), (iphone, .landscape, 3), (iphone, .landscape, 3),
        ]
        for (profile, orientation, detail) in asks {
            #expect(value(profile, orientation, detail) == "\(profile.value.idiom) \(orientation) \(detail)")
        }
        // Two kept (the capacity), the others made each time they are asked.
        #expect(made == 7)
    }

    @Test func aChangedPresentationIsTheDevicesOwn() throws {
        var core = PresentationCore()
        _ = core.handle(device: "a", action: .tap(Tap(element: "add", profile: .ipad)))
        _ = core.handle(device: "b", action: .tap(Tap(element: "add", profile: .ipad)))
        var session = try #require(core.devices["a"])
        session.presentation?.arrowDirection = .down
        #expect(session.presentation?.arrowDirection == .down)
        #expect(core.devices["b"]?.presentation?.arrowDirection == .up)
        session.presentation = nil
        #expect(session.presentation == nil && core.devices["b"]?.presentation != nil)
    }

    @Test func theSnapshotJSONKeepsItsFormAndRoundTrips() throws {
        var core = PresentationCore()
        _ = core.handle(device: "a", action: .tap(Tap(element: "add", profile: .iphone)))
        _ = core.handle(device: "a", action: .interaction(Interaction(element: "weapon", enabled: false)))
        let session = try #require(core.devices["a"])
        let json = Data(try JSONCoding.encode(session))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set(object.keys) == ["profile", "orientation", "widthClass", "mode", "presentation", "interactionDisabled"])
        #expect(try JSONCoding.decode(DeviceSession.self, from: Array(json)) == session)
        var quiet = session
        quiet.presentation = nil
        let bare = Data(try JSONCoding.encode(quiet))
        let bareObject = try #require(try JSONSerialization.jsonObject(with: bare) as? [String: Any])
        #expect(bareObject["presentation"] == nil)
        #expect(try JSONCoding.decode(DeviceSession.self, from: Array(bare)) == quiet)
    }

    @Test func theFirstActionWithoutAProfileOfAnUnknownDeviceIsRefusedThenTheProfileIsKept() {
        var core = PresentationCore()
        #expect(core.handle(device: "new", action: .tap(Tap(element: "add"))).first?.errorBody?.code == "unknown-device")
        #expect(core.devices["new"] == nil)
        _ = core.handle(device: "new", action: .describe(Describe(profile: .ipad)))
        #expect(core.handle(device: "new", action: .tap(Tap(element: "add"))).first?.errorBody == nil)
        #expect(core.devices["new"]?.profile == .ipad)
    }
}
