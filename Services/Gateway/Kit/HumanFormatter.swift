import Domain
import Wire

/// One readable line per thing that happened, for people; `nil` for bookkeeping (acks, pongs).
public struct HumanFormatter: Sendable {
    /// Whether to use ANSI colours (only on a terminal, and never with `NO_COLOR`).
    public let colors: Bool

    /// A formatter, coloured or not.
    public init(colors: Bool) { self.colors = colors }

    /// The line for `envelope`. Requests between processes and bookkeeping get a line only
    /// when `describingRequests` is set (as `watch` does).
    public func line(for envelope: Envelope, describingRequests: Bool = false) -> String? {
        let device = envelope.device.map { paint($0, .dim) + " " } ?? ""
        guard let text = describe(envelope) ?? (describingRequests ? request(envelope) : nil) else { return nil }
        return device + text
    }

    /// A line for a request or a bookkeeping message: who sent what.
    private func request(_ envelope: Envelope) -> String {
        let detail: String
        switch envelope.body {
        case .tap(let tap): detail = tap.element ?? tap.point.map { "at \(number($0.x)),\(number($0.y))" } ?? ""
        case .rotate(let rotate): detail = rotate.orientation.rawValue
        case .resize(let resize): detail = resize.mode?.rawValue ?? resize.width.rawValue
        case .select(let select): detail = select.monster
        case .interaction(let interaction): detail = "\(interaction.element) \(interaction.enabled ? "on" : "off")"
        case .inputTap(let tap): detail = tap.element
        case .inputPassed(let passed): detail = "at \(number(passed.point.x)),\(number(passed.point.y))"
        case .rosterSelect(let select): detail = select.monster
        case .heartbeat(let beat): detail = "\(beat.service) up \(Int(beat.uptimeSeconds))s"
        case .pong(let pong): detail = pong.service
        case .ack(let ack): detail = "\(ack.handled) \(ack.handledId): \(ack.emitted.count) emitted, \(ack.forwarded.count) passed on"
        default: detail = ""
        }
        return paint(envelope.service, .dim) + " " + envelope.type.rawValue + (detail.isEmpty ? "" : " " + detail)
    }

    private func describe(_ envelope: Envelope) -> String? {
        switch envelope.body {
        case .presented(let presented):
            let p = presented.presentation
            let again = presented.reason == "tap" ? "" : " again after \(presented.reason)"
            if p.style == .alert {
                let buttons = p.buttons.enumerated().map { "[\($0.offset)] \($0.element)" }.joined(separator: ", ")
                return paint("alert", .bold) + " “\(p.message ?? "")”\(again): \(buttons) — centred at \(format(p.frame))"
            }
            let anchor = p.anchor.map { "\($0.kind == .barButton ? "bar button" : "rectangle of") \($0.element)" } ?? "?"
            return paint("popover", .bold) + " \(p.content.rawValue)\(again) from \(anchor): \(p.buttons.joined(separator: " | "))"
                + " — arrow \(arrowName(p.arrowDirection)) (\(p.arrowDirection.rawValue); permitted \(p.permittedArrowDirections?.rawValue ?? 0)), frame \(format(p.frame))"
        case .moved(let moved):
            let p = moved.presentation
            let what = p.style == .alert ? "alert “\(p.message ?? "")”" : "popover \(p.content.rawValue)"
            return "\(what) stays up, re-centred after \(moved.reason): now at \(format(p.frame))"
        case .interactionChanged(let changed):
            let now = changed.interactionDisabled.isEmpty ? "none" : changed.interactionDisabled.joined(separator: ", ")
            return "user interaction of \(changed.element) now \(changed.enabled ? "on" : "off") (off now: \(now))"
        case .unchanged(let unchanged):
            return paint("nothing changed", .dim) + ": \(unchanged.message) [\(unchanged.reason)]"
        case .outcome(let outcome):
            return "\(outcome.action): \(outcome.result.rawValue)" + (outcome.reason.map { " (\($0))" } ?? "")
        case .hidden(let hidden):
            return "\(hidden.presentation.style.rawValue) \(hidden.presentation.content.rawValue) hidden (\(hidden.reason) started)"
        case .dismissed(let dismissed):
            let by = dismissed.button.map { " by \($0)" + (dismissed.buttonIndex.map { " (index \($0))" } ?? "") } ?? ""
            return "\(dismissed.presentation.style.rawValue) \(dismissed.presentation.content.rawValue) dismissed\(by): \(dismissed.reason)"
        case .mediaAddRequested(let request):
            return paint("add \(request.kind.rawValue) requested", .green)
        case .colorSelected(let selected):
            return "colour \(selected.color.rawValue) picked"
        case .deviceLayout(let layout):
            return "window now \(layout.orientation.rawValue), \(layout.widthClass.rawValue) width, \(Int(layout.window.width))×\(Int(layout.window.height)) pt" + place(layout)
        case .deviceState(let state):
            let shown = state.presentation.map { "\($0.style.rawValue) \($0.content.rawValue) up" } ?? "nothing presented"
            let off = state.interactionDisabled.isEmpty ? "" : "; user interaction off: " + state.interactionDisabled.sorted().joined(separator: ", ")
            return "\(state.profile.idiom.rawValue) \(state.layout.orientation.rawValue), \(state.layout.widthClass.rawValue) width, \(Int(state.layout.window.width))×\(Int(state.layout.window.height)) pt\(place(state.layout)); \(shown)\(off)"
        case .inputShown(let shown):
            let v = shown.input
            let buttons = v.buttons.isEmpty ? "" : ": " + v.buttons.joined(separator: ", ")
            // Wider than a Slide Over or Split View window: say where the screen-wide view starts.
            let from = v.frame.x == 0 ? "" : " from x \(number(v.frame.x))"
            return "input view \(v.view) shown for \(v.responder), \(Int(v.width))×\(Int(v.height)) pt\(from)\(shown.created ? " (created)" : "")\(shown.reason == "first-responder" ? "" : " after \(shown.reason)")\(buttons)"
        case .inputHidden(let hidden):
            return "input view \(hidden.input.view) hidden: \(hidden.reason)"
        case .weaponSelected(let selected):
            return "weapon \(selected.weapon.name) (\(selected.weaponType)) selected"
        case .inputState(let state):
            return "first responder: \(state.firstResponder ?? "none")" + (state.input.map { "; \($0.view) \(Int($0.width))×\(Int($0.height)) pt on screen" } ?? "")
        case .snapshot(let snapshot):
            var lines = ["roster at revision \(snapshot.revision)" + (snapshot.selected.map { ", showing \($0)" } ?? "") + " (database \(snapshot.databaseId)):"]
            for m in snapshot.monsters {
                lines.append("  \(m.name.padding(to: 16)) \(m.description.padding(to: 22)) \(m.icon.padding(to: 22)) \(m.weapon.name.padding(to: 9)) \(m.color.rawValue)")
            }
            return lines.joined(separator: "\n")
        case .selection(let selection):
            let m = selection.monster
            return "detail shows " + paint(m.name, .bold) + " — \(m.description); icon \(m.icon); weapon \(m.weapon.name) (\(m.weaponImage)); name in \(m.color.rawValue)"
        case .monsterUpdated(let update):
            let m = update.monster
            let what = update.change == "weapon" ? "weapon is now \(m.weapon.name)" : "name colour is now \(m.color.rawValue)"
            return paint("\(m.name)'s \(what)", .green) + " (revision \(update.revision))"
        case .forgotten(let forgotten):
            return "\(forgotten.service) " + (forgotten.held ? "forgot the device" : "held nothing for the device")
        case .backup(let backup):
            return paint("roster backup written to \(backup.path)", .green) + ": revision \(backup.revision) of database \(backup.databaseId)"
        case .error(let error):
            return paint("refused by \(envelope.service) [\(error.code)]", .red) + ": \(error.message)"
        case .statusReport, .heartbeat, .ack, .pong, .ping, .lossReport, .tap, .rotate, .resize, .select, .interaction, .describe,
             .inputTap, .inputPassed, .snapshotRequest, .rosterSelect, .statusRequest, .forget, .backupRequest, .replica:
            return nil
        }
    }

    /// Where a window narrower than the screen is: ` (slide-over at 448, 0)`; empty for full screen.
    private func place(_ layout: DeviceLayout) -> String {
        guard let mode = layout.mode, mode != .fullScreen else { return "" }
        let origin = layout.windowOrigin ?? Point(x: 0, y: 0)
        return " (\(mode.rawValue) at \(number(origin.x)), \(number(origin.y)))"
    }

    private enum Style: String { case bold = "1", dim = "2", red = "31", green = "32" }

    private func paint(_ text: String, _ style: Style) -> String {
        colors ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    private func format(_ rect: Rect) -> String {
        "(\(number(rect.x)), \(number(rect.y))) \(number(rect.width))×\(number(rect.height))"
    }

    private func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    private func arrowName(_ direction: ArrowDirections) -> String {
        switch direction {
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .unknown: "unknown"
        default: "mixed"
        }
    }
}
