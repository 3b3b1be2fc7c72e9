import Domain
import Foundation
import FoundationXML
import InputCore
import PresentationCore
import Testing
@testable import GatewayKit
import TestTiers

/// The screen renderer draws every kind of screen as well-formed SVG with the parts tests look for.
@Suite(.tags(.inMemory)) struct ScreenRendererTests {
    // MARK: Nothing presented

    @Test func svg_isWellFormedWithTheSVGNamespaceAndTheScreenSize() throws {
        let text = render(Screens.state(.ipad))
        let svg = try XMLTree.parse(text)
        #expect(svg.name == "svg")
        #expect(svg.attributes["xmlns"] == "http://www.w3.org/2000/svg" || text.contains("xmlns=\"http://www.w3.org/2000/svg\""))
        let bezel = ScreenTheme.Bezel.width
        #expect(svg.attributes["width"] == SVGBuilder.number(768 + 2 * bezel))
        #expect(svg.attributes["height"] == SVGBuilder.number(1024 + 2 * bezel))
        #expect(svg.attributes["viewBox"] == "-12 -12 792 1048")
        let window = try #require(svg.element(id: "window"))
        #expect(window.attributes["data-width"] == "768")
        #expect(window.attributes["data-height"] == "1024")
        #expect(window.attributes["transform"] == nil)
    }

    @Test func nothingPresented_drawsTheBarsTheBarButtonsAndTheDetailPane() throws {
        let svg = try XMLTree.parse(render(Screens.state(.ipad), deviceName: "my-ipad"))
        #expect(svg.element(id: "status-bar")?.text.contains("my-ipad") == true)
        #expect(svg.element(id: "status-bar")?.text.contains("9:41") == true)
        let buttons = svg.elements(class: "bar-button")
        #expect(buttons.compactMap { $0.attributes["data-title"] } == ["Monster List", "Choose Color", "+"])
        #expect(buttons.first { $0.attributes["data-name"] == "color" }?.text == "Choose Color")
        #expect(svg.element(id: "name")?.text == "Cat-Bot")
        #expect(svg.element(id: "description")?.text == "MEE-OW")
        #expect(svg.element(id: "icon")?.text.contains("meetcatbot.png") == true)
        #expect(svg.element(id: "weapon-label")?.text == "Preferred way to kill")
        #expect(svg.element(id: "weapon")?.text.contains("Sword") == true)
        #expect(svg.element(id: "weapon")?.text.contains("sword.png") == true)
        #expect(svg.element(id: "notes")?.text == "Notes")
        for id in ["popover", "alert", "dimming", "input-view", "master", "other-app"] {
            #expect(svg.element(id: id) == nil, "unexpected \(id)")
        }
    }

    @Test func disabledBarButton_isDrawnGrey() throws {
        var state = Screens.state(.ipad)
        state.interactionDisabled = ["add"]
        let svg = try XMLTree.parse(render(state))
        let add = try #require(svg.element(id: "add"))
        #expect(add.classes.contains("disabled"))
        #expect(add.all.contains { $0.attributes["stroke"] == ScreenTheme.disabled })
        let color = try #require(svg.element(id: "color"))
        #expect(!color.classes.contains("disabled"))
        #expect(color.all.contains { $0.attributes["fill"] == ScreenTheme.tint })
    }

    @Test func withoutARoster_theDetailPaneShowsPlaceholdersOnly() throws {
        let svg = try XMLTree.parse(ScreenRenderer.svg(device: Screens.state(.ipad), input: nil, roster: nil, deviceName: "ipad"))
        #expect(svg.element(id: "name")?.text == "")
        #expect(svg.element(id: "icon")?.text == "?")
    }

    // MARK: Popovers

    @Test func popoverFromABarButton_showsPhotoAndAudioWithItsArrowUpToTheButton() throws {
        let add = Rect(x: 716, y: 20, width: 44, height: 44)
        var state = Screens.state(.ipad)
        state.presentation = Screens.popover(
            .add, anchor: Anchor(kind: .barButton, element: "add", rect: add),
            frame: Rect(x: 558, y: 77, width: 200, height: 125), arrow: .up, tip: Point(x: 738, y: 64))
        state.popoverArrowDirection = .up
        let svg = try XMLTree.parse(render(state))
        let popover = try #require(svg.element(id: "popover"))
        #expect(popover.text.contains("Photo"))
        #expect(popover.text.contains("Audio"))
        #expect(popover.elements(class: "popover-button").compactMap { $0.attributes["data-title"] } == ["Photo", "Audio"])
        #expect(popover.attributes["data-arrow-side"] == "top")
        #expect(popover.attributes["data-arrow-tip"] == "738,64")
        #expect(popover.attributes["data-anchor-kind"] == "barButton")
        // The outline runs from the body's top edge (y 77) up to the tip and back.
        let outline = try #require(svg.element(id: "popover-body")?.attributes["d"])
        #expect(outline.contains("L738 64"))
        // The popover is drawn after (over) the layout.
        let order = svg.all.compactMap { $0.attributes["id"] }
        let popoverIndex = try #require(order.firstIndex(of: "popover"))
        let notesIndex = try #require(order.firstIndex(of: "notes"))
        #expect(popoverIndex > notesIndex)
    }

    @Test(arguments: [
        (ArrowDirections.up, "top"), (.down, "bottom"), (.left, "left"), (.right, "right"),
    ])
    func popoverFromARect_putsTheArrowOnTheSideItsDirectionNames(direction: ArrowDirections, side: String) throws {
        let body = Rect(x: 200, y: 300, width: 200, height: 125)
        let tip: Point = switch direction {
        case .up: Point(x: 300, y: body.minY - 13)
        case .down: Point(x: 300, y: body.maxY + 13)
        case .left: Point(x: body.minX - 13, y: 360)
        default: Point(x: body.maxX + 13, y: 360)
        }
        var state = Screens.state(.ipad)
        state.presentation = Screens.popover(
            .add, anchor: Anchor(kind: .rect, element: "icon", rect: Rect(x: 20, y: 170, width: 95, height: 95)),
            frame: body, arrow: direction, tip: tip)
        let svg = try XMLTree.parse(render(state))
        let popover = try #require(svg.element(id: "popover"))
        #expect(popover.attributes["data-arrow-side"] == side)
        #expect(popover.attributes["data-arrow-direction"] == String(direction.rawValue))
        #expect(popover.attributes["data-anchor-kind"] == "rect")
        let outline = try #require(svg.element(id: "popover-body")?.attributes["d"])
        #expect(outline.contains("L\(SVGBuilder.number(tip.x)) \(SVGBuilder.number(tip.y))"))
    }

    @Test func popoverOutline_withoutAKnownDirection_hasNoArrow() {
        let body = Rect(x: 10, y: 10, width: 100, height: 50)
        let plain = ScreenDrawing.popoverPath(body: body, radius: 13, arrow: nil)
        #expect(ScreenDrawing.arrowSide(.unknown) == nil)
        #expect(ScreenDrawing.arrowSide(.any) == nil)
        #expect(plain.hasPrefix("M23 10"))
        #expect(plain.hasSuffix("Z"))
        let arrowed = ScreenDrawing.popoverPath(body: body, radius: 13, arrow: (.top, Point(x: 60, y: -3)))
        #expect(arrowed.contains("L46 10L60 -3L74 10"))
    }

    /// An arrow whose base runs into a corner of its side makes that corner square (UIKit's
    /// popover near the screen's edge); the corner at the other end stays round.
    @Test func popoverOutline_anArrowAtAnEndSquaresThatCornerOnly() {
        let body = Rect(x: 10, y: 10, width: 100, height: 50)
        let atLeft = ScreenDrawing.popoverPath(body: body, radius: 13, arrow: (.top, Point(x: 12, y: -3)))
        #expect(atLeft.hasPrefix("M10 10L10 10L"), "\(atLeft)")
        #expect(atLeft.contains("L97 10A13 13 0 0 1 110 23"), "\(atLeft)")
        let atRight = ScreenDrawing.popoverPath(body: body, radius: 13, arrow: (.top, Point(x: 108, y: -3)))
        #expect(atRight.hasPrefix("M23 10"), "\(atRight)")
        #expect(atRight.contains("L110 10L110 "), "\(atRight)")
    }

    /// A popover narrower than two corner radii is rounded by half its width, never past its sides.
    @Test func popoverOutline_aNarrowPopoverIsRoundedByHalfItsWidth() throws {
        var state = Screens.state(.ipad)
        state.presentation = Screens.popover(
            .color, anchor: Anchor(kind: .barButton, element: "color", rect: Rect(x: 40, y: 128, width: 44, height: 44)),
            frame: Rect(x: 100, y: 100, width: 16, height: 100), arrow: .left, tip: Point(x: 87, y: 150))
        let svg = try XMLTree.parse(render(state))
        let path = try #require(svg.element(id: "popover-body")?.attributes["d"])
        #expect(path.hasPrefix("M108 100") && path.contains("A8 8 0 0 1 116 108"), "\(path)")
    }

    @Test func colourPickerPopover_hasASwatchPerColourAndChecksTheCurrentOne() throws {
        var state = Screens.state(.ipad)
        state.presentation = Screens.popover(
            .color, anchor: Anchor(kind: .barButton, element: "color", rect: Rect(x: 598, y: 20, width: 110, height: 44)),
            frame: Rect(x: 578, y: 77, width: 150, height: 140), arrow: .up, tip: Point(x: 653, y: 64))
        let roster = Screens.roster(selected: "Cat-Bot", changing: { $0.with(color: .green) })
        let svg = try XMLTree.parse(render(state, roster: roster))
        let popover = try #require(svg.element(id: "popover"))
        let rows = popover.elements(class: "popover-button")
        #expect(rows.compactMap { $0.attributes["data-title"] } == ["Red", "Green", "Blue"])
        #expect(rows.filter { $0.classes.contains("checked") }.compactMap { $0.attributes["data-title"] } == ["Green"])
        #expect(popover.elements(class: "swatch").compactMap { $0.attributes["fill"] }
            == [NameColor.red, .green, .blue].map(ScreenTheme.color))
    }

    // MARK: Alerts

    @Test func alert_dimsTheWholeWindowAndShowsItsMessageAndButtonsWithCancelBold() throws {
        var state = Screens.state(.iphone)
        state.presentation = Screens.alert(window: Size(width: 375, height: 667))
        let svg = try XMLTree.parse(render(state))
        let dimming = try #require(svg.element(id: "dimming"))
        #expect(dimming.attributes["x"] == "0" && dimming.attributes["y"] == "0")
        #expect(dimming.attributes["width"] == "375" && dimming.attributes["height"] == "667")
        let alert = try #require(svg.element(id: "alert"))
        #expect(svg.element(id: "alert-message")?.text == "Add…")
        let buttons = alert.elements(class: "alert-button")
        try #require(buttons.compactMap { $0.attributes["data-title"] } == ["Cancel", "Photo", "Audio"])
        let cancel = try #require(buttons.first { $0.classes.contains("cancel") })
        #expect(cancel.attributes["data-index"] == "0")
        #expect(cancel.all.contains { $0.name == "text" && $0.attributes["font-weight"] == "700" })
        #expect(!buttons[1].all.contains { $0.attributes["font-weight"] == "700" })
        // The dimming layer is over the layout, and the alert over the dimming layer.
        let order = svg.all.compactMap { $0.attributes["id"] }
        let dimmingIndex = try #require(order.firstIndex(of: "dimming"))
        let notesIndex = try #require(order.firstIndex(of: "notes"))
        let alertIndex = try #require(order.firstIndex(of: "alert"))
        #expect(notesIndex < dimmingIndex && dimmingIndex < alertIndex)
        #expect(svg.element(id: "popover") == nil)
    }

    // MARK: Input views

    @Test func weaponPicker_isAsWideAsTheKeyboardWithFiveSquaresAndClose() throws {
        let input = InputState(
            firstResponder: "weapon",
            input: InputViews.view(for: .weapon, keyboard: KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024)),
            weaponPickerCreated: true)
        let svg = try XMLTree.parse(render(Screens.state(.ipad), input: input))
        let view = try #require(svg.element(id: "input-view"))
        #expect(view.attributes["data-view"] == "weapon-picker")
        let background = try #require(svg.element(id: "input-view-background"))
        #expect(background.attributes["width"] == "768")
        #expect(background.attributes["y"] == "914" && background.attributes["height"] == "110")
        let weapons = view.elements(class: "weapon-button")
        #expect(weapons.compactMap { $0.attributes["data-name"] } == ["blowgun", "fire", "ninja-star", "smoke", "sword"])
        #expect(weapons.map(\.text) == ["Blowgunblowgun.png", "Firefire.png", "NinjaStarninjastar.png", "Smokesmoke.png", "Swordsword.png"])
        for weapon in weapons {
            let key = try #require(weapon.children.last { $0.name == "rect" && $0.attributes["fill"] == ScreenTheme.Keyboard.key })
            #expect(key.attributes["width"] == "70" && key.attributes["height"] == "70")
        }
        // Cat-Bot's weapon is the Sword: its square is marked, and the weapon image is first responder.
        #expect(weapons.filter { $0.classes.contains("current") }.compactMap { $0.attributes["data-name"] } == ["sword"])
        #expect(svg.element(id: "weapon")?.classes.contains("first-responder") == true)
        #expect(view.text.contains("Close"))
    }

    @Test func keyboard_isDrawnAsAKeyboardPlaceholder() throws {
        let input = InputState(
            firstResponder: "notes",
            input: InputView(view: "keyboard", responder: "notes", width: 768, height: 264,
                             frame: Rect(x: 0, y: 760, width: 768, height: 264), buttons: []),
            weaponPickerCreated: false)
        let svg = try XMLTree.parse(render(Screens.state(.ipad), input: input))
        #expect(svg.element(id: "input-view")?.attributes["data-view"] == "keyboard")
        #expect(svg.element(id: "input-view-background")?.attributes["width"] == "768")
        let keyboard = try #require(svg.element(id: "keyboard"))
        #expect(keyboard.text.contains("QWERTYUIOP"))
        #expect(svg.element(id: "notes")?.elements(class: "caret").count == 1)
    }

    // MARK: The split view

    @Test func landscapeSplitView_showsTheRosterWithTheSelectedMonsterHighlighted() throws {
        let roster = Screens.roster(selected: "Dog-Bot")
        let svg = try XMLTree.parse(render(Screens.state(.ipad, orientation: .landscape), roster: roster))
        #expect(svg.attributes["width"] == SVGBuilder.number(1024 + 2 * ScreenTheme.Bezel.width))
        #expect(svg.element(id: "master-navigation-bar")?.text == "Monsters")
        let rows = svg.elements(class: "row")
        #expect(rows.map(\.text) == Catalogue.names)
        #expect(rows.compactMap { $0.attributes["data-name"] } == Catalogue.names.map { "row:" + $0 })
        #expect(rows.filter { $0.classes.contains("selected") }.map(\.text) == ["Dog-Bot"])
        #expect(svg.element(id: "name")?.text == "Dog-Bot")
        #expect(svg.element(id: "icon")?.text.contains("meetdogbot.png") == true)
        #expect(svg.element(id: "weapon")?.text.contains("Blowgun") == true)
        #expect(svg.elements(class: "bar-button").compactMap { $0.attributes["data-title"] } == ["Choose Color", "+"])
    }

    @Test(arguments: NameColor.allCases)
    func nameLabel_isDrawnInTheMonstersColour(color: NameColor) throws {
        let roster = Screens.roster(selected: "Ice-Bot", changing: { $0.with(color: color) })
        let svg = try XMLTree.parse(render(Screens.state(.ipad), roster: roster))
        let name = try #require(svg.element(id: "name")?.all.first { $0.name == "text" })
        #expect(name.text == "Ice-Bot")
        #expect(name.attributes["fill"] == ScreenTheme.color(color))
        #expect(name.attributes["data-color"] == color.rawValue)
    }

    @Test func slideOver_drawsTheNarrowWindowAtTheScreensRightEdge() throws {
        var state = Screens.state(.ipad, widthClass: .compact)
        state.presentation = Screens.alert(window: state.layout.window)
        let svg = try XMLTree.parse(render(state))
        #expect(svg.attributes["viewBox"] == "-12 -12 792 1048")
        let window = try #require(svg.element(id: "window"))
        #expect(window.attributes["transform"] == "translate(448 0)")
        #expect(window.attributes["data-width"] == "320")
        #expect(svg.element(id: "other-app") != nil)
        #expect(svg.element(id: "dimming")?.attributes["width"] == "320")
    }

    // MARK: Escaping

    @Test func xmlSpecialCharacters_inNamesAndTitles_areEscaped() throws {
        let tricky = "<Bot & \"Co\">'s\u{1}"
        let monster = Monster(name: tricky, description: "a < b && c > d", icon: "x&y.png", weapon: .fire, color: .red)
        let roster = RosterSnapshot(revision: 3, monsters: [monster], selected: tricky)
        var state = Screens.state(.ipad, orientation: .landscape)
        state.layout.elements.append(LayoutElement(
            name: "row:" + tricky, kind: .row, title: tricky, frame: Rect(x: 0, y: 328, width: 320, height: 44)))
        let text = ScreenRenderer.svg(device: state, input: nil, roster: roster, deviceName: "dev<&>\"'")
        #expect(!text.contains(tricky))
        #expect(text.contains("&lt;Bot &amp; &quot;Co&quot;&gt;&apos;s\u{FFFD}"))
        let svg = try XMLTree.parse(text)
        let shown = "<Bot & \"Co\">'s\u{FFFD}"
        #expect(svg.attributes["data-device"] == "dev<&>\"'")
        #expect(svg.element(id: "name")?.text == shown)
        #expect(svg.element(id: "description")?.text == "a < b && c > d")
        #expect(svg.element(id: "icon")?.text.contains("x&y.png") == true)
        let row = try #require(svg.elements(class: "row").last)
        #expect(row.attributes["data-name"] == "row:" + shown)
        #expect(row.classes.contains("selected"))
        #expect(row.text == shown)
    }

    @Test func svgBuilder_escapesAndFormatsNumbers() {
        #expect(SVGBuilder.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&apos;f")
        #expect(SVGBuilder.escape("tab\tnew\nline\u{0}") == "tab&#9;new&#10;line\u{FFFD}")
        #expect(SVGBuilder.escape("Add… 🙂") == "Add… 🙂")
        #expect(SVGBuilder.number(558) == "558")
        #expect(SVGBuilder.number(52.5) == "52.5")
        #expect(SVGBuilder.number(1.0 / 3) == "0.33")
        #expect(SVGBuilder.number(-0.001) == "0")
        #expect(SVGBuilder.number(.nan) == "0")
        #expect(SVGBuilder.number(.infinity) == "0")
    }

    @Test func everyIdInTheDocument_isUnique() throws {
        var state = Screens.state(.ipad, orientation: .landscape)
        state.presentation = Screens.alert(window: state.layout.window)
        let input = InputState(
            firstResponder: "weapon",
            input: InputViews.view(for: .weapon, keyboard: KeyboardMetrics(width: 1024, systemHeight: 352, windowHeight: 768)),
            weaponPickerCreated: true)
        let svg = try XMLTree.parse(render(state, input: input))
        let ids = svg.all.compactMap { $0.attributes["id"] }
        #expect(Set(ids).count == ids.count)
    }

    // MARK: Helpers

    private func render(
        _ state: DeviceState, input: InputState? = nil, roster: RosterSnapshot? = Screens.roster(selected: nil),
        deviceName: String = "ipad"
    ) -> String {
        ScreenRenderer.svg(device: state, input: input, roster: roster, deviceName: deviceName)
    }
}

/// Turning SVG into PNG with whatever converter this machine has.
@Suite(.tags(.inMemory)) struct PNGConverterTests {
    @Test func findTool_findsNothingOnAnEmptyPath_andReportsItClearly() throws {
        #expect(PNGConverter.findTool(searchPath: "") == nil)
        #expect(PNGConverter.findTool(searchPath: "/nonexistent-directory") == nil)
        do {
            try PNGConverter.convert(svgFile: "/tmp/x.svg", pngFile: "/tmp/x.png", searchPath: "/nonexistent-directory")
            Issue.record("expected no converter")
        } catch {
            #expect(error.code == .noConverter)
            #expect(error.description.contains("rsvg-convert"))
        }
    }

    @Test func findTool_prefersRsvgConvert_andRunsAFailingConverterWithAClearError() throws {
        let directory = try TemporaryDirectory()
        try directory.executable("convert", "#!/bin/sh\necho 'convert: no delegate' >&2\nexit 1\n")
        #expect(PNGConverter.findTool(searchPath: directory.path) == PNGConverter.Tool(kind: .convert, path: directory.path + "/convert"))
        try directory.executable("rsvg-convert", "#!/bin/sh\necho 'rsvg: cannot read' >&2\nexit 2\n")
        let tool = try #require(PNGConverter.findTool(searchPath: "relative:" + directory.path))
        #expect(tool.kind == .rsvgConvert)
        let svg = directory.path + "/in.svg"
        try "<svg xmlns=\"http://www.w3.org/2000/svg\"/>".write(toFile: svg, atomically: true, encoding: .utf8)
        do {
            try PNGConverter.convert(svgFile: svg, pngFile: directory.path + "/out.png", tool: tool)
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .conversionFailed)
            #expect(error.reason.contains("exited with status 2"))
            #expect(error.reason.contains("rsvg: cannot read"))
        }
        #expect(tool.arguments(svgFile: "a.svg", pngFile: "b.png", scale: 2) == ["--zoom", "2", "--output", "b.png", "a.svg"])
        #expect(PNGConverter.Tool(kind: .magick, path: "/m").arguments(svgFile: "a.svg", pngFile: "b.png", scale: 1)
            == ["-density", "72", "a.svg", "b.png"])
    }

    /// The converter's status and the file it wrote are all there is to go by: both must hold.
    @Test func convert_succeedsOnlyWhenTheConverterWroteTheFile() throws {
        let directory = try TemporaryDirectory()
        let svg = directory.path + "/in.svg", png = directory.path + "/out.png"
        try "<svg xmlns=\"http://www.w3.org/2000/svg\"/>".write(toFile: svg, atomically: true, encoding: .utf8)
        try directory.executable("rsvg-convert", "#!/bin/sh\n[ \"$3\" = --output ] && printf PNG > \"$4\"\n")
        let writes = PNGConverter.Tool(kind: .rsvgConvert, path: directory.path + "/rsvg-convert")
        #expect(try PNGConverter.convert(svgFile: svg, pngFile: png, tool: writes) == writes)
        #expect(try String(contentsOfFile: png, encoding: .utf8) == "PNG")

        try FileManager.default.removeItem(atPath: png)
        try directory.executable("convert", "#!/bin/sh\nexit 0\n")
        let silent = PNGConverter.Tool(kind: .convert, path: directory.path + "/convert")
        #expect(throws: PNGConverter.ConversionError(.conversionFailed, "convert at \(silent.path) wrote no file at \(png)")) {
            try PNGConverter.convert(svgFile: svg, pngFile: png, tool: silent)
        }
    }

    @Test(.enabled(if: PNGConverter.findTool()?.kind == .rsvgConvert))
    func convert_writesAPNGOfTheScreen() throws {
        let directory = try TemporaryDirectory()
        let svg = directory.path + "/screen.svg"
        let png = directory.path + "/screen.png"
        try ScreenRenderer.svg(device: Screens.state(.iphone), input: nil, roster: Screens.roster(selected: nil), deviceName: "phone")
            .write(toFile: svg, atomically: true, encoding: .utf8)
        let tool = try PNGConverter.convert(svgFile: svg, pngFile: png)
        #expect(tool.kind == .rsvgConvert)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
        #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        // The PNG's width (big-endian at offset 16) is the screen plus the bezel, one pixel a point.
        let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == 375 + 2 * Int(ScreenTheme.Bezel.width))
    }

    @Test func convert_refusesAMissingSVG() throws {
        do {
            try PNGConverter.convert(svgFile: "/nonexistent/in.svg", pngFile: "/tmp/out.png",
                                     tool: PNGConverter.Tool(kind: .rsvgConvert, path: "/bin/false"))
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == .missingInput)
        }
    }
}

// MARK: - Fixtures

/// Device states built by hand, laid out as presentation-policy lays them out.
fileprivate enum Screens {
    /// The state of a device with `profile`, turned to `orientation`, with nothing presented.
    static func state(_ profile: DeviceProfile, orientation: Orientation = .portrait, widthClass: SizeClass? = nil) -> DeviceState {
        let widthClass = widthClass ?? profile.widthClass
        return DeviceState(
            profile: profile, layout: layout(profile, orientation: orientation, widthClass: widthClass),
            presentation: nil, popoverArrowDirection: .unknown, interactionDisabled: [])
    }

    /// The layout presentation-policy computes (`ScreenLayout`), written out again.
    static func layout(_ profile: DeviceProfile, orientation: Orientation, widthClass: SizeClass) -> DeviceLayout {
        let screen = orientation == .portrait ? profile.screen : Size(width: profile.screen.height, height: profile.screen.width)
        let window = Size(width: widthClass == .compact && profile.idiom == .pad ? 320 : screen.width, height: screen.height)
        let split = profile.idiom == .pad && widthClass == .regular
        var elements = [LayoutElement(name: "status-bar", kind: .bar, frame: Rect(x: 0, y: 0, width: window.width, height: 20))]
        if split && orientation == .landscape {
            elements.append(LayoutElement(name: "master", kind: .pane, frame: Rect(x: 0, y: 20, width: 320, height: window.height - 20)))
            elements.append(LayoutElement(name: "master-navigation-bar", kind: .bar, title: "Monsters", frame: Rect(x: 0, y: 20, width: 320, height: 44)))
            for (index, name) in Catalogue.names.enumerated() {
                elements.append(LayoutElement(name: "row:" + name, kind: .row, title: name,
                                              frame: Rect(x: 0, y: 64 + Double(index) * 44, width: 320, height: 44)))
            }
        }
        let left = split && orientation == .landscape ? 321.0 : 0
        let width = window.width - left
        elements.append(LayoutElement(name: "detail", kind: .pane, frame: Rect(x: left, y: 20, width: width, height: window.height - 20)))
        elements.append(LayoutElement(name: "navigation-bar", kind: .bar, frame: Rect(x: left, y: 20, width: width, height: 44)))
        if split && orientation == .portrait {
            elements.append(LayoutElement(name: "monster-list", kind: .barButton, title: "Monster List", frame: Rect(x: left + 8, y: 20, width: 110, height: 44)))
        }
        let add = Rect(x: window.width - 52, y: 20, width: 44, height: 44)
        elements.append(LayoutElement(name: "color", kind: .barButton, title: "Choose Color", frame: Rect(x: add.minX - 118, y: 20, width: 110, height: 44)))
        elements.append(LayoutElement(name: "add", kind: .barButton, title: "+", frame: add))
        let x = left + 20
        let textWidth = min(width - 40, 400)
        elements += [
            LayoutElement(name: "name", kind: .label, frame: Rect(x: x, y: 84, width: textWidth, height: 40)),
            LayoutElement(name: "description", kind: .label, frame: Rect(x: x, y: 130, width: textWidth, height: 30)),
            LayoutElement(name: "icon", kind: .image, frame: Rect(x: x, y: 170, width: 95, height: 95)),
            LayoutElement(name: "weapon-label", kind: .label, title: "Preferred way to kill", frame: Rect(x: x, y: 285, width: 200, height: 21)),
            LayoutElement(name: "weapon", kind: .image, frame: Rect(x: x, y: 315, width: 70, height: 70)),
            LayoutElement(name: "notes", kind: .textField, title: "Notes", frame: Rect(x: x, y: 405, width: min(width - 40, 300), height: 31)),
        ]
        return DeviceLayout(orientation: orientation, widthClass: widthClass, window: window, elements: elements)
    }

    /// A popover of `content` at `frame` with its arrow pointing `arrow` to `tip`.
    static func popover(_ content: PresentationContent, anchor: Anchor, frame: Rect, arrow: ArrowDirections, tip: Point) -> Presentation {
        let buttons: [String] = switch content {
        case .add: ["Photo", "Audio"]
        case .color: ["Red", "Green", "Blue"]
        case .monsterList: Catalogue.names
        }
        let frames = buttons.indices.map { index in
            content == .add
                ? Rect(x: frame.x + 20, y: frame.y + 20 + Double(index) * 50, width: 160, height: 37)
                : Rect(x: frame.x, y: frame.y + Double(index) * 44, width: frame.width, height: 44)
        }
        return Presentation(
            style: .popover, content: content, message: nil, buttons: buttons, buttonFrames: frames,
            cancelButtonIndex: nil, anchor: anchor, permittedArrowDirections: .any, arrowDirection: arrow,
            arrowTip: tip, frame: frame, contentSize: frame.size, passthrough: [])
    }

    /// The "Add…" alert centred in `window`: Photo and Audio stacked, Cancel (index 0) last.
    static func alert(window: Size) -> Presentation {
        let frame = Rect(x: (window.width - 270) / 2, y: (window.height - 200) / 2, width: 270, height: 200)
        let row = { (row: Double) in Rect(x: frame.x, y: frame.y + 68 + row * 44, width: 270, height: 44) }
        return Presentation(
            style: .alert, content: .add, message: "Add…", buttons: ["Cancel", "Photo", "Audio"],
            buttonFrames: [row(2), row(0), row(1)], cancelButtonIndex: 0, anchor: nil, permittedArrowDirections: nil,
            arrowDirection: .unknown, arrowTip: nil, frame: frame, contentSize: frame.size, passthrough: [])
    }

    /// The catalogue's roster with `selected`, one monster changed by `changing` if given.
    static func roster(selected: String?, changing: ((Monster) -> Monster)? = nil) -> RosterSnapshot {
        let monsters = Catalogue.monsters.map { monster in
            monster.name == (selected ?? Catalogue.initialSelection) ? (changing?(monster) ?? monster) : monster
        }
        return RosterSnapshot(revision: 0, monsters: monsters, selected: selected)
    }
}

// MARK: - Reading the SVG back

/// An element of a parsed XML document, with its attributes, children and text.
final class XMLTree {
    let name: String
    let attributes: [String: String]
    var children: [XMLTree] = []
    /// Text directly inside this element.
    var ownText = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// This element and everything inside it, in document order.
    var all: [XMLTree] { [self] + children.flatMap(\.all) }
    /// All the text inside, concatenated.
    var text: String { ownText + children.map(\.text).joined() }
    /// The `class` attribute's words.
    var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }

    /// The element with `id`, here or inside.
    func element(id: String) -> XMLTree? { all.first { $0.attributes["id"] == id } }
    /// The elements of class `name`, here or inside, in document order.
    func elements(class name: String) -> [XMLTree] { all.filter { $0.classes.contains(name) } }

    /// The root element of `text`; throws if it is not well-formed XML.
    static func parse(_ text: String) throws -> XMLTree {
        let parser = XMLParser(data: Data(text.utf8))
        let builder = Builder()
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw ParseError(description: "not well-formed: \(parser.parserError.map { "\($0)" } ?? "no root") at line \(parser.lineNumber)")
        }
        return root
    }

    struct ParseError: Error, CustomStringConvertible {
        let description: String
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: XMLTree?
        var stack: [XMLTree] = []

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            let element = XMLTree(name: elementName, attributes: attributeDict)
            if let parent = stack.last { parent.children.append(element) } else { root = element }
            stack.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            let element = stack.removeLast()
            // Indentation between child elements is not text.
            if element.ownText.contains("\n") && element.ownText.allSatisfy({ $0 == " " || $0 == "\n" }) {
                element.ownText = ""
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.ownText += string
        }
    }
}

/// A fresh temporary directory, removed when released.
fileprivate final class TemporaryDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "screen-renderer-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Writes an executable script `name` holding `script`. A shell of its own writes it: were
    /// this (multi-threaded) test process to hold the file open for writing, a child that another
    /// test forks at that moment would inherit the descriptor, and running the script could fail
    /// with "Text file busy" (ETXTBSY).
    func executable(_ name: String, _ script: String) throws {
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "printf '%s' \"$1\" > \"$2\" && chmod 755 \"$2\"", "sh", script, path + "/" + name]
        try writer.run()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

// MARK: - Whole screens, as recorded

/// Whole screens drawn exactly as recorded in `Tests/Golden/`: every coordinate, size, colour
/// and word of the drawing is what a user of `screen` sees, so a change to any of them shows
/// here. After a deliberate change to the drawing, record the screens again and review the diff:
/// `MONSTERBUS_UPDATE_GOLDEN=1 swift test --filter ScreenGoldenTests`.
@Suite(.tags(.inMemory)) struct ScreenGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden").path

    /// The iPad on its side: the master list with Cat-Bot selected, the detail, the colour popover
    /// with the monster's colour checked.
    static func ipadLandscapeColour() throws -> String {
        let session = DeviceSession(profile: DeviceProfile(
            idiom: .pad, screen: Size(width: 768, height: 1024), os: OSVersion("17.0")!, orientation: .landscape, widthClass: .regular))
        var state = session.message
        let color = try #require(session.layout.element("color"))
        state.presentation = PresentationFactory.popover(
            .color, anchor: Anchor(kind: .barButton, element: "color", rect: color.frame), in: session.layout)
        let roster = Screens.roster(selected: "Cat-Bot") { $0.with(color: .green) }
        return ScreenRenderer.svg(device: state, input: nil, roster: roster, deviceName: "ipad")
    }

    /// A placeholder draws its pictogram when 22 pt are left above its labels (two lines: 32 pt).
    @Test func aPlaceholderDrawsItsPictogramFrom22PointsAboveItsLabels() {
        for (height, drawn) in [(60.0, true), (59.9, false)] {
            var drawing = ScreenDrawing(device: DeviceSession(profile: .ipad).message, input: nil, roster: nil, deviceName: "ipad")
            drawing.drawImagePlaceholder(Rect(x: 0, y: 0, width: 90, height: height), title: "Sword", file: "sword.png")
            #expect(drawing.svg.output.contains("class=\"pictogram\"") == drawn, "\(height) pt")
        }
    }

    /// The iPhone's `+` alert over the detail.
    static func iphoneAddAlert() -> String {
        let session = DeviceSession(profile: .iphone)
        var state = session.message
        state.presentation = PresentationFactory.alert(.add, in: session.layout)
        return ScreenRenderer.svg(device: state, input: nil, roster: Screens.roster(selected: nil), deviceName: "iphone")
    }

    /// The iPad upright with the weapon picker up.
    static func ipadWeaponPicker() -> String {
        let input = InputState(
            firstResponder: "weapon",
            input: InputViews.view(for: .weapon, keyboard: KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024)),
            weaponPickerCreated: true)
        return ScreenRenderer.svg(device: DeviceSession(profile: .ipad).message, input: input,
                                  roster: Screens.roster(selected: "Ice-Bot"), deviceName: "ipad")
    }

    /// The iPhone with the notes field's keyboard up.
    static func iphoneKeyboard() -> String {
        let input = InputState(
            firstResponder: "notes",
            input: InputView(view: "keyboard", responder: "notes", width: 375, height: 216,
                             frame: Rect(x: 0, y: 451, width: 375, height: 216), buttons: []),
            weaponPickerCreated: false)
        return ScreenRenderer.svg(device: DeviceSession(profile: .iphone).message, input: input,
                                  roster: Screens.roster(selected: nil), deviceName: "iphone")
    }

    /// The app in Slide Over, the other app's area left of it.
    static func ipadSlideOver() -> String {
        var session = DeviceSession(profile: .ipad)
        session.widthClass = .compact
        session.mode = .slideOver
        return ScreenRenderer.svg(device: session.message, input: nil, roster: Screens.roster(selected: nil), deviceName: "ipad")
    }

    @Test(arguments: ["ipad-landscape-colour", "iphone-add-alert", "ipad-weapon-picker", "iphone-keyboard", "ipad-slide-over"])
    func theScreenIsDrawnAsRecorded(_ name: String) throws {
        let drawn = switch name {
        case "ipad-landscape-colour": try Self.ipadLandscapeColour()
        case "iphone-add-alert": Self.iphoneAddAlert()
        case "ipad-weapon-picker": Self.ipadWeaponPicker()
        case "iphone-keyboard": Self.iphoneKeyboard()
        default: Self.ipadSlideOver()
        }
        let path = Self.folder + "/" + name + ".svg"
        if ProcessInfo.processInfo.environment["MONSTERBUS_UPDATE_GOLDEN"] == "1" {
            try drawn.write(toFile: path, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try #require(
            try? String(contentsOfFile: path, encoding: .utf8),
            "\(path) is missing: MONSTERBUS_UPDATE_GOLDEN=1 swift test --filter ScreenGoldenTests records it")
        guard drawn != recorded else { return }
        // The first difference, with a little of what comes before it.
        let same = zip(drawn, recorded).prefix { $0 == $1 }.count
        let from = drawn.index(drawn.startIndex, offsetBy: max(0, same - 60))
        Issue.record("""
            \(name) is drawn differently from \(path) at character \(same):
            drawn:    …\(drawn[from...].prefix(140))
            recorded: …\(recorded[recorded.index(recorded.startIndex, offsetBy: max(0, same - 60))...].prefix(140))
            """)
    }
}
