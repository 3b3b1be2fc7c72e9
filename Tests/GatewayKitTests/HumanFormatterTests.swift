import Domain
import Testing
import Wire
@testable import GatewayKit
import TestTiers

/// One readable line per thing that happened.
@Suite(.tags(.inMemory)) struct HumanFormatterTests {
    let plain = HumanFormatter(colors: false)

    func line(_ body: Body, device: String? = "ipad", service: String = "presentation-policy") -> String? {
        plain.line(for: Envelope(id: "i", correlationId: "c", service: service, device: device, seq: 1, time: "t", body: body))
    }

    @Test func aPopoverSaysWhereItIsAndWhatItOffers() throws {
        let text = try #require(line(.presented(Presented(presentation: popover, reason: "tap"))))
        #expect(text == "ipad popover add from bar button add: Photo | Audio — arrow up (1; permitted 15), frame (558, 77) 200×125")
    }

    @Test func anAlertListsItsButtonsWithTheirIndices() throws {
        let text = try #require(line(.presented(Presented(presentation: alert, reason: "tap")), device: "iphone"))
        #expect(text.hasPrefix("iphone alert “Add…”: [0] Cancel, [1] Photo, [2] Audio"))
    }

    @Test func refusalsNameTheServiceAndCode() {
        #expect(line(.error(ErrorBody(code: "modal-alert", message: "an alert is up")))
            == "ipad refused by presentation-policy [modal-alert]: an alert is up")
    }

    @Test func bookkeepingIsNotShown() {
        #expect(line(.ack(Ack(handled: "x", handledId: "y", emitted: [], forwarded: []))) == nil)
        #expect(line(.pong(Pong(service: "bus", version: "1", pid: 1))) == nil)
    }

    @Test func coloursOnlyWhenAsked() throws {
        let coloured = HumanFormatter(colors: true).line(for: Envelope(
            id: "i", correlationId: "c", service: "s", device: nil, seq: 1, time: "t",
            body: .mediaAddRequested(MediaAddRequested(kind: .photo))))
        #expect(coloured?.contains("\u{1B}[") == true)
        #expect(line(.mediaAddRequested(MediaAddRequested(kind: .photo)))?.contains("\u{1B}") == false)
    }

    @Test func aWeaponChangeReadsAsASentence() throws {
        let monster = try #require(Catalogue.monster(named: "Dog-Bot")).with(weapon: .fire)
        #expect(line(.monsterUpdated(MonsterUpdated(revision: 3, monster: monster, change: "weapon")), service: "roster")
            == "ipad Dog-Bot's weapon is now Fire (revision 3)")
    }

    var popover: Presentation {
        Presentation(
            style: .popover, content: .add, message: nil, buttons: ["Photo", "Audio"], buttonFrames: [],
            cancelButtonIndex: nil, anchor: Anchor(kind: .barButton, element: "add", rect: Rect(x: 716, y: 20, width: 44, height: 44)),
            permittedArrowDirections: .any, arrowDirection: .up, arrowTip: Point(x: 738, y: 64),
            frame: Rect(x: 558, y: 77, width: 200, height: 125), contentSize: Size(width: 200, height: 125), passthrough: [])
    }

    var alert: Presentation {
        Presentation(
            style: .alert, content: .add, message: "Add…", buttons: ["Cancel", "Photo", "Audio"], buttonFrames: [],
            cancelButtonIndex: 0, anchor: nil, permittedArrowDirections: nil, arrowDirection: .unknown, arrowTip: nil,
            frame: Rect(x: 52.5, y: 233.5, width: 270, height: 200), contentSize: Size(width: 270, height: 200), passthrough: [])
    }
}
