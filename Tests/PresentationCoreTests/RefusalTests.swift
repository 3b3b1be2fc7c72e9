import Domain
import Testing
@testable import PresentationCore
import TestTiers

/// A refused action changes nothing (docs/behaviour.md; SPEC §1.2, "an alert is modal"): it
/// publishes its error and nothing else, the device is held exactly as before, and the next
/// action does what it would have done had the refused one never come — checked against a twin
/// that never got it.
@Suite(.tags(.unit)) struct RefusalTests {
    /// Actions before the refusal, the refused action and its code, and an action after it.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let device: String
        let before: [PresentationAction]
        let refused: PresentationAction
        let code: String
        let next: PresentationAction
        var testDescription: String { name }
    }

    static let landscapeIPad = DeviceProfile(
        idiom: .pad, screen: Size(width: 768, height: 1024), os: DeviceProfile.ipad.os, orientation: .landscape, widthClass: .regular)

    /// Slide Over (compact) said to be regular: a contradiction, refused.
    static let contradictoryResize: Resize = {
        var resize = Resize(width: .regular)
        resize.mode = .slideOver
        return resize
    }()

    static let cases: [Case] = [
        Case(name: "a bar button under an alert", device: "iphone", before: [.tap(Tap(element: "add", profile: .iphone))],
             refused: .tap(Tap(element: "color")), code: "modal-alert", next: .tap(Tap(element: "cancel"))),
        Case(name: "a point beside an alert", device: "iphone", before: [.tap(Tap(element: "add", profile: .iphone))],
             refused: .tap(Tap(point: Point(x: 5, y: 600))), code: "modal-alert", next: .tap(Tap(element: "photo"))),
        Case(name: "a selection under an alert", device: "iphone", before: [.tap(Tap(element: "add", profile: .iphone))],
             refused: .select(Select(monster: "Dog-Bot")), code: "modal-alert", next: .describe(Describe())),
        Case(name: "a resize of an iPhone", device: "iphone", before: [.tap(Tap(element: "add", profile: .iphone))],
             refused: .resize(Resize(width: .regular)), code: "unsupported", next: .tap(Tap(element: "audio"))),
        Case(name: "half of Split View in portrait", device: "ipad", before: [.tap(Tap(element: "add", profile: .ipad))],
             refused: .resize(Resize(mode: .splitViewHalf)), code: "bad-resize", next: .rotate(Rotate(orientation: .landscape))),
        Case(name: "a mode the width contradicts, with a popover up", device: "ipad", before: [.tap(Tap(element: "add", profile: .ipad))],
             refused: .resize(contradictoryResize), code: "bad-resize", next: .tap(Tap(element: "photo"))),
        Case(name: "an element that is not on screen, with a popover up", device: "ipad", before: [.tap(Tap(element: "color", profile: .ipad))],
             refused: .tap(Tap(element: "cancel")), code: "no-such-element", next: .tap(Tap(element: "outside"))),
        Case(name: "the Monster List button in landscape", device: "wide", before: [.tap(Tap(element: "add", profile: landscapeIPad))],
             refused: .tap(Tap(element: "monster-list")), code: "no-such-element", next: .rotate(Rotate(orientation: .portrait))),
        Case(name: "a view with interaction off", device: "ipad",
             before: [.interaction(Interaction(element: "add", enabled: false, profile: .ipad)), .tap(Tap(element: "color"))],
             refused: .tap(Tap(element: "add")), code: "interaction-disabled", next: .tap(Tap(element: "red"))),
        Case(name: "the interaction of a view the app has not", device: "ipad", before: [.tap(Tap(element: "add", profile: .ipad))],
             refused: .interaction(Interaction(element: "laser", enabled: false)), code: "unknown-element", next: .describe(Describe())),
        Case(name: "other hardware under a known id", device: "iphone", before: [.tap(Tap(element: "add", profile: .iphone))],
             refused: .tap(Tap(element: "cancel", profile: .ipad)), code: "device-conflict", next: .tap(Tap(element: "cancel"))),
    ]

    @Test(arguments: cases)
    func aRefusedActionChangesNothing_theNextActsAsIfItNeverCame(_ refusal: Case) {
        var refusing = Harness(), twin = Harness()
        for action in refusal.before {
            _ = refusing.send(refusal.device, action)
            _ = twin.send(refusal.device, action)
        }
        let before = refusing.core.devices
        let effects = refusing.send(refusal.device, refusal.refused)
        #expect(effects.map { $0.errorBody?.code } == [refusal.code], "\(effects)")
        #expect(refusing.core.devices == before)
        #expect(refusing.send(refusal.device, refusal.next) == twin.send(refusal.device, refusal.next))
        #expect(refusing.core.devices == twin.core.devices)
    }
}
