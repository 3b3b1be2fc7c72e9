import Domain
import Foundation
import Testing
import Wire
@testable import PresentationCore
import TestTiers
import PresentationService

/// A device's session is small — it shares its profile and the presentation on screen
/// with every device holding the same — and behaves as before: same values, same snapshot JSON.
@Suite(.tags(.unit)) struct CompactSessionTests {
    @Test func devicesAlikeShareTheirProfileAndPresentation() throws {
        var core = PresentationCore(memo: PresentationTables())
        _ = core.handle(device: "a", action: .tap(Tap(element: "add", profile: .ipad)))
        _ = core.handle(device: "b", action: .tap(Tap(element: "add", profile: .ipad)))
        let a = try #require(core.devices["a"]), b = try #require(core.devices["b"])
        #expect(a.presentation != nil && a.presentation == b.presentation)
        #expect(a.shownPresentation === b.shownPresentation)
        #expect(a.layoutKey.profile === b.layoutKey.profile)
        #expect(a == b)
        #expect(MemoryLayout<DeviceSession>.size <= 40)
    }

    /// The core keeps no table of its own: two cores, each with its owner's tables, share nothing.
    @Test func coresWithTablesOfTheirOwnShareNothing() throws {
        var first = PresentationCore(memo: PresentationTables()), second = PresentationCore(memo: PresentationTables())
        _ = first.handle(device: "a", action: .tap(Tap(element: "add", profile: .ipad)))
        _ = second.handle(device: "a", action: .tap(Tap(element: "add", profile: .ipad)))
        let a = try #require(first.devices["a"]), b = try #require(second.devices["a"])
        #expect(a == b)
        #expect(a.shownPresentation !== b.shownPresentation)
        #expect(a.layoutKey.profile !== b.layoutKey.profile)
    }

    /// A session read from a snapshot holds values of its own; given to the core, it holds what
    /// the core's tables hold, as devices described there do.
    @Test func aRestoredSessionIsInternedAgain() throws {
        var core = PresentationCore(memo: PresentationTables())
        _ = core.handle(device: "a", action: .tap(Tap(element: "add", profile: .ipad)))
        let a = try #require(core.devices["a"])
        let read = try JSONCoding.decode(DeviceSession.self, from: Array(try JSONCoding.encode(a)))
        #expect(read == a && read.shownPresentation !== a.shownPresentation)
        core.restore(read, for: "b")
        let b = try #require(core.devices["b"])
        #expect(b == a)
        #expect(b.shownPresentation === a.shownPresentation)
        #expect(b.layoutKey.profile === a.layoutKey.profile)
    }

    @Test func aChangedPresentationIsTheDevicesOwn() throws {
        var core = PresentationCore(memo: PresentationTables())
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
        var core = PresentationCore(memo: PresentationTables())
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
        var core = PresentationCore(memo: PresentationTables())
        #expect(core.handle(device: "new", action: .tap(Tap(element: "add"))).first?.errorBody?.code == "unknown-device")
        #expect(core.devices["new"] == nil)
        _ = core.handle(device: "new", action: .describe(Describe(profile: .ipad)))
        #expect(core.handle(device: "new", action: .tap(Tap(element: "add"))).first?.errorBody == nil)
        #expect(core.devices["new"]?.profile == .ipad)
    }
}
