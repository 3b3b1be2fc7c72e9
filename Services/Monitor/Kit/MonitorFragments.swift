import Domain
import Foundation
import GatewayKit
import Wire

/// The parts of the page, as HTML: a device's card with its screen, the services' health, the
/// bus's statistics and the timeline. Pure: the same model and time give the same text.
public enum MonitorFragments {
    /// The screen of `device` as `gateway screen` draws it, with every SVG id made unique to the
    /// device (several screens share one page); `nil` until presentation-policy has described it.
    public static func screen(_ device: String, _ view: DeviceView, model: MonitorModel) -> String? {
        guard let state = view.state else { return nil }
        let svg = ScreenRenderer.svg(device: state, input: view.input, roster: model.rosterSnapshot(for: view), deviceName: device)
        return scoped(svg, prefix: "d" + HTML.token(device) + "-")
    }

    /// `svg` with its ids and the references to them (`url(#…)`, `href="#…"`) prefixed.
    static func scoped(_ svg: String, prefix: String) -> String {
        svg.replacingOccurrences(of: " id=\"", with: " id=\"" + prefix)
            .replacingOccurrences(of: "=\"url(#", with: "=\"url(#" + prefix)
            .replacingOccurrences(of: " href=\"#", with: " href=\"#" + prefix)
    }

    /// A device's card: its name, what it is, and its screen (or why there is none yet).
    public static func card(_ device: String, _ view: DeviceView, model: MonitorModel) -> String {
        var caption = ""
        if let state = view.state {
            let idiom = state.profile.idiom == .pad ? "iPad" : "iPhone"
            caption = "\(idiom) · iOS \(state.profile.os) · \(state.layout.orientation.rawValue) · \(state.layout.widthClass.rawValue) width"
            if let presentation = state.presentation {
                caption += " · \(presentation.style.rawValue) \(presentation.content.rawValue): \(presentation.buttons.joined(separator: ", "))"
            }
            if let input = view.input?.input { caption += " · input view \(input.view)" }
        }
        let body = screen(device, view, model: model)
            ?? "<p class=\"waiting\">asking presentation-policy for this device’s state…</p>"
        return "<h2><a href=\"/device/\(HTML.escape(percentEncoded(device)))\">\(HTML.escape(device))</a></h2>"
            + "<p class=\"caption\">\(HTML.escape(caption))</p><div class=\"screen\">\(body)</div>"
    }

    /// The services' health as `gateway status` shows it, and the bus's statistics.
    public static func health(_ model: MonitorModel, now: Double, monitor: MonitorCounters) -> String {
        var rows = ""
        func row(_ name: String, _ heard: HeardHeartbeat?) {
            guard let heard else {
                rows += "<tr class=\"missing\" data-service=\"\(HTML.escape(name))\"><td>\(HTML.escape(name))</td><td>-</td><td>-</td><td>-</td><td>never</td><td>MISSING</td><td></td></tr>"
                return
            }
            let beat = heard.heartbeat
            let age = Int(((now - heard.at) * 1000).rounded())
            let stale = age > 3 * beat.intervalMilliseconds
            let counters = beat.counters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            rows += "<tr class=\"\(stale ? "stale" : "up")\" data-service=\"\(HTML.escape(beat.service))\"><td>\(HTML.escape(beat.service))</td>"
                + "<td>\(HTML.escape(beat.version))</td><td>\(beat.pid)</td><td>\(Int(beat.uptimeSeconds))s</td>"
                + "<td>\(age) ms ago</td><td>\(stale ? "STALE" : "up")</td><td class=\"counters\">\(HTML.escape(counters))</td></tr>"
        }
        row(MonsterBus.Service.bus, model.services[MonsterBus.Service.bus])
        for name in MonsterBus.Service.all { row(name, model.services[name]) }
        let known = Set([MonsterBus.Service.bus] + MonsterBus.Service.all)
        for name in model.services.keys.sorted() where !known.contains(name) { row(name, model.services[name]) }
        var bus = ""
        if let beat = model.services[MonsterBus.Service.bus]?.heartbeat {
            bus = beat.counters.sorted { $0.key < $1.key }
                .map { "<div><dt>\(HTML.escape($0.key))</dt><dd>\($0.value)</dd></div>" }.joined()
        }
        let own = [
            ("messages seen", monitor.received), ("dropped by the monitor", monitor.dropped),
            ("waiting to be read", monitor.queued), ("devices", UInt64(model.devices.count)), ("re-described", model.resyncs),
        ].map { "<div><dt>\($0.0)</dt><dd>\($0.1)</dd></div>" }.joined()
        return "<table class=\"status\"><thead><tr><th>service</th><th>version</th><th>pid</th><th>uptime</th><th>heartbeat</th><th>state</th><th>counters</th></tr></thead><tbody>"
            + rows + "</tbody></table><h3>Bus</h3><dl class=\"bus\">" + (bus.isEmpty ? "<div><dt>no heartbeat from the bus yet</dt></div>" : bus)
            + "</dl><h3>Monitor</h3><dl class=\"bus\">" + own + "</dl>"
    }

    /// The last actions, newest first, each with what it caused in each service and the time of each hop.
    public static func timeline(_ model: MonitorModel) -> String {
        let records = model.timeline.recent.reversed()
        guard !records.isEmpty else { return "<p class=\"waiting\">no action yet: try <code>gateway --device ipad tap add</code></p>" }
        let formatter = HumanFormatter(colors: false)
        var html = "<ol class=\"actions\">"
        for record in records {
            let action = record.action
            let outcome = record.expired ? "expired" : record.tracker.errors.isEmpty ? "ok" : "refused"
            let what = formatter.line(for: action, describingRequests: true) ?? action.type.rawValue
            var head = "<span class=\"time\">\(HTML.escape(String(action.time.dropFirst(11).dropLast())))</span> "
                + "<span class=\"what\">\(HTML.escape(what))</span>"
            if let roundTrip = record.roundTrip {
                head += " <span class=\"latency\">\(milliseconds(roundTrip)) round trip</span>"
            } else {
                head += " <span class=\"latency\">incomplete: still waiting for \(HTML.escape(record.tracker.awaiting))</span>"
            }
            if record.sends > 1 { head += " <span class=\"sends\">sent \(record.sends) times</span>" }
            html += "<li class=\"action \(outcome)\" data-type=\"\(HTML.escape(action.type.rawValue))\"><div class=\"head\">\(head)</div><ol class=\"hops\">"
            for hop in hops(record) {
                html += "<li><span class=\"service\">\(HTML.escape(hop.service))</span> <span class=\"text\">\(HTML.escape(hop.text))</span>"
                    + " <span class=\"latency\">\(HTML.escape(hop.latency))</span></li>"
            }
            html += "</ol></li>"
        }
        return html + "</ol>"
    }

    /// One message an action caused: who sent it, what it says, and how long after its cause.
    struct Hop {
        let service: String
        let text: String
        let latency: String
    }

    /// The messages of `record` in arrival order; each one's cause is the message whose
    /// acknowledgement lists it (or the action), and its latency is the difference of their
    /// envelope times (milliseconds) and of when the monitor saw them.
    static func hops(_ record: ActionRecord) -> [Hop] {
        let formatter = HumanFormatter(colors: false)
        var cause: [String: String] = [:]
        var envelopes: [String: Envelope] = [record.action.id: record.action]
        for envelope in record.tracker.received {
            envelopes[envelope.id] = envelope
            if case .ack(let ack) = envelope.body {
                cause[envelope.id] = ack.handledId
                for id in ack.emitted { cause[id] = ack.handledId }
            }
        }
        return record.tracker.received.map { envelope in
            let from = envelopes[cause[envelope.id] ?? record.action.id] ?? record.action
            var latency = ""
            if let sent = Timestamp.parse(envelope.time), let before = Timestamp.parse(from.time) {
                latency = "+\(Int(((sent - before) * 1000).rounded())) ms"
            }
            let seenBefore = from.id == record.action.id ? record.seenAt : record.seen[from.id]
            if let seen = record.seen[envelope.id], let seenBefore {
                latency += " (seen +\(milliseconds(seen - seenBefore)))"
            }
            let text: String
            if case .ack(let ack) = envelope.body {
                text = "ack \(ack.handled): \(ack.emitted.count) published, \(ack.forwarded.count) passed on" + (ack.duplicate ? " (duplicate)" : "")
            } else {
                text = formatter.line(for: envelope, describingRequests: true) ?? envelope.type.rawValue
            }
            return Hop(service: envelope.service, text: text, latency: latency)
        }
    }

    /// `seconds` as milliseconds with two decimals.
    static func milliseconds(_ seconds: Double) -> String {
        let hundredths = Int((seconds * 100_000).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }

    /// `text` percent-encoded for a URL path segment.
    public static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if (byte < 0x80 && (Character(scalar).isLetter || Character(scalar).isNumber)) || "-._~".unicodeScalars.contains(scalar) {
                result.unicodeScalars.append(scalar)
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (byte < 16 ? "0" : "") + hex
            }
        }
        return result
    }
}

/// The monitor's own counters, kept by its bus threads.
public struct MonitorCounters: Sendable, Equatable {
    /// Messages read from the bus.
    public var received: UInt64 = 0
    /// Messages the monitor had no room for (it could not keep up) and dropped, re-describing instead.
    public var dropped: UInt64 = 0
    /// Messages read but not yet taken in.
    public var queued: UInt64 = 0
    /// Counters from zero.
    public init() {}
}
