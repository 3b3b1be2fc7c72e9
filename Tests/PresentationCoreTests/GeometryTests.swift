import Domain
import Testing
@testable import PresentationCore
import TestTiers

/// The popover placement rule: fits on screen inside the margin, arrow at the anchor.
@Suite(.tags(.unit)) struct GeometryTests {
    let window = Size(width: 768, height: 1024)
    let size = Size(width: 200, height: 125)

    @Test func underTheNavigationBarTheArrowPointsUp() {
        let anchor = Rect(x: 716, y: 20, width: 44, height: 44)
        let geometry = PopoverGeometry(anchor: anchor, contentSize: size, permitted: .any, window: window)
        #expect(geometry.arrowDirection == .up)
        #expect(geometry.arrowDirection.rawValue == 1)
        #expect(geometry.frame.minY == anchor.maxY + PopoverGeometry.arrowHeight)
        #expect(geometry.arrowTip.y == anchor.maxY)
        #expect(geometry.arrowTip.x >= anchor.minX && geometry.arrowTip.x <= anchor.maxX)
        #expect(geometry.frame.maxX <= window.width - PopoverGeometry.margin)
    }

    @Test func nearTheBottomTheArrowPointsDown() {
        let anchor = Rect(x: 300, y: 960, width: 44, height: 44)
        let geometry = PopoverGeometry(anchor: anchor, contentSize: size, permitted: .any, window: window)
        #expect(geometry.arrowDirection == .down)
        #expect(geometry.frame.maxY == anchor.minY - PopoverGeometry.arrowHeight)
        #expect(geometry.arrowTip == Point(x: anchor.midX, y: anchor.minY))
    }

    @Test func onlyPermittedDirectionsAreUsed() {
        let anchor = Rect(x: 10, y: 400, width: 44, height: 44)
        let geometry = PopoverGeometry(anchor: anchor, contentSize: size, permitted: .left, window: window)
        #expect(geometry.arrowDirection == .left)
        #expect(geometry.frame.minX == anchor.maxX + PopoverGeometry.arrowHeight)
        #expect(geometry.arrowTip == Point(x: anchor.maxX, y: anchor.midY))
        let right = PopoverGeometry(anchor: Rect(x: 700, y: 400, width: 44, height: 44), contentSize: size, permitted: .right, window: window)
        #expect(right.arrowDirection == .right)
        #expect(right.frame.maxX == 700 - PopoverGeometry.arrowHeight)
    }

    @Test func whenNothingFitsTheRoomiestDirectionWinsAndTheBodyShrinks() {
        let tall = Size(width: 200, height: 2000)
        let anchor = Rect(x: 300, y: 20, width: 44, height: 44)
        let geometry = PopoverGeometry(anchor: anchor, contentSize: tall, permitted: [.up, .down], window: window)
        #expect(geometry.arrowDirection == .up)
        #expect(geometry.frame.maxY == window.height - PopoverGeometry.margin)
        #expect(geometry.frame.height < tall.height)
    }

    @Test func everyPopoverOfTheAppFitsOnEveryIPadLayout() {
        for orientation in [Orientation.portrait, .landscape] {
            let layout = ScreenLayout(profile: .ipad, orientation: orientation, widthClass: .regular)
            let screen = Rect(x: 0, y: ScreenLayout.statusBarHeight, width: layout.window.width, height: layout.window.height - 20)
            for element in layout.elements where element.kind == .barButton || element.name == "icon" {
                let anchor = Anchor(kind: element.kind == .barButton ? .barButton : .rect, element: element.name, rect: element.frame)
                for content in [PresentationContent.add, .color, .monsterList] {
                    let popover = PresentationFactory.popover(content, anchor: anchor, in: layout)
                    #expect(screen.contains(popover.frame), "\(content) from \(element.name) in \(orientation)")
                    #expect(popover.frame.size == popover.contentSize)
                }
            }
        }
    }
}

/// Every element of every layout is inside the window.
@Suite(.tags(.unit)) struct LayoutTests {
    @Test(arguments: [DeviceProfile.ipad, .iphone, .ipadLegacy])
    func everyElementIsInsideTheWindowInBothOrientations(_ profile: DeviceProfile) {
        for orientation in [Orientation.portrait, .landscape] {
            for width in profile.idiom == .pad ? [SizeClass.regular, .compact] : [.compact] {
                let layout = ScreenLayout(profile: profile, orientation: orientation, widthClass: width)
                let window = Rect(x: 0, y: 0, width: layout.window.width, height: layout.window.height)
                for element in layout.elements {
                    #expect(window.contains(element.frame), "\(element.name) in \(orientation) \(width)")
                }
            }
        }
    }

    /// An anchor within a corner's inset of the window's edge: the tip cannot clear the body's
    /// rounded corner and the anchor at once, and points at the anchor's centre.
    @Test func anAnchorAtTheWindowsEdgeGetsTheArrowAtItsCentre() {
        let anchor = Rect(x: 0, y: 300, width: 8, height: 44)
        let geometry = PopoverGeometry(
            anchor: anchor, contentSize: Size(width: 200, height: 125), permitted: .up, window: Size(width: 768, height: 1024))
        #expect(geometry.frame.minX == PopoverGeometry.margin)
        #expect(geometry.arrowTip == Point(x: 4, y: anchor.maxY))
    }

    /// The detail pane's labels: 400 pt wide, 280 pt in a window under 500 pt tall (its second
    /// column then starts 300 pt in).
    @Test func theLabelsAreNarrowerInAShortWindow() throws {
        let tall = ScreenLayout(profile: .ipad, orientation: .portrait, widthClass: .regular)
        let short = ScreenLayout(profile: .iphone, orientation: .landscape, widthClass: .compact)
        #expect(try #require(tall.element("name")).frame.width == 400)
        #expect(try #require(tall.element("description")).frame.width == 400)
        #expect(try #require(short.element("name")).frame.width == 280)
        #expect(try #require(short.element("description")).frame.width == 280)
        // Top: the status bar (20) and the navigation bar (44); the columns start 20 pt below it.
        #expect(try #require(tall.element("weapon-label")).frame == Rect(x: 20, y: 64 + 221, width: 200, height: 21))
        #expect(try #require(short.element("weapon-label")).frame == Rect(x: 320, y: 64 + 20, width: 200, height: 21))
        #expect(try #require(short.element("weapon")).frame == Rect(x: 320, y: 64 + 50, width: 70, height: 70))
    }

    @Test func buttonsOfAShrunkPopoverStayInsideItsBody() {
        let layout = ScreenLayout(profile: .iphone, orientation: .landscape, widthClass: .compact)
        let tiny = ScreenLayout(profile: DeviceProfile(idiom: .pad, screen: Size(width: 300, height: 260), os: OSVersion("17.0")!, orientation: .portrait, widthClass: .regular), orientation: .portrait, widthClass: .regular)
        for current in [layout, tiny] {
            guard let color = current.element("color") else { continue }
            let popover = PresentationFactory.popover(.monsterList, anchor: Anchor(kind: .barButton, element: "color", rect: color.frame), in: current)
            for frame in popover.buttonFrames { #expect(popover.frame.contains(frame)) }
        }
    }
}
