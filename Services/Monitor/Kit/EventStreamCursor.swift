/// What one `/events` client has been sent, and so what it needs next: Server-Sent Events
/// `screen` (a device's card, at every change of the device), `gone` (a device presentation-policy
/// no longer knows), `timeline` and `health`. A client that reads slowly is sent only the latest
/// state when it next reads: nothing piles up for it.
public struct EventStreamCursor: Sendable {
    /// The one device this client watches; `nil` for the overview's devices.
    public let device: String?
    private var sentDevices: [String: UInt64] = [:]
    private var sentTimeline: UInt64?
    private var sentHealth: UInt64?
    private var healthSentAt = -Double.infinity

    /// When the health table is next due (monotonic seconds): a stream with nothing else to
    /// send waits until then.
    public var nextHealthAt: Double { healthSentAt + 1 }

    /// A client that has been sent nothing yet.
    public init(device: String?) { self.device = device }

    /// The events that bring the client up to `model` at `now`, as SSE text; empty when it is up to date.
    public mutating func events(_ model: MonitorModel, now: Double, monitor: MonitorCounters) -> String {
        var text = ""
        let names: [String]
        if let device {
            names = model.devices[device] == nil ? [] : [device]
        } else {
            names = Array(model.devices.keys.sorted().prefix(MonitorPage.maxScreens))
        }
        for name in names {
            guard let view = model.devices[name], sentDevices[name] != view.version else { continue }
            sentDevices[name] = view.version
            text += Self.event("screen", ["device": name, "html": MonitorFragments.card(name, view, model: model)])
        }
        let shown = Set(names)
        for name in sentDevices.keys.sorted() where !shown.contains(name) {
            sentDevices.removeValue(forKey: name)
            if model.devices[name] == nil { text += Self.event("gone", ["device": name]) }
        }
        if sentTimeline != model.timeline.version {
            sentTimeline = model.timeline.version
            text += Self.event("timeline", ["html": MonitorFragments.timeline(model)])
        }
        if now - healthSentAt >= 1 || (sentHealth != model.healthVersion && now - healthSentAt >= 0.25) {
            sentHealth = model.healthVersion
            healthSentAt = now
            text += Self.event("health", ["html": MonitorFragments.health(model, now: now, monitor: monitor)])
        }
        return text
    }

    /// One event: its name and a JSON object of strings as its data (one line).
    static func event(_ name: String, _ fields: [String: String]) -> String {
        let json = fields.keys.sorted().map { HTML.jsonString($0) + ":" + HTML.jsonString(fields[$0]!) }.joined(separator: ",")
        return "event: \(name)\ndata: {\(json)}\n\n"
    }
}
