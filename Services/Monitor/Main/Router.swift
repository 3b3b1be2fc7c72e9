import MonitorKit
import Wire

/// A response to one request: a status, a content type and a body; an event stream; or a
/// request that must wait (for presentation-policy's answer about a device).
enum HTTPResponse {
    /// A whole body.
    case page(status: UInt32, contentType: String, body: String)
    /// Server-Sent Events for one device, or (nil) the overview.
    case events(device: String?)
    /// Ask again at a change of the model (past `seen`) or at `deadline`, whichever is first.
    case wait(seen: UInt64, deadline: Double)
}

/// What each path serves: `/` the overview, `/device/NAME` one device, `/events` the live
/// updates, `/metrics` Prometheus's text, `/healthz` whether the monitor hears the bus;
/// anything else is a 404 page, and methods other than GET and HEAD a 405. On the health
/// listener (`healthOnly`), only `/healthz` and `/metrics`. It never waits: a page that needs an
/// answer from the bus is a `wait`, asked again later with the deadline it was given.
final class Router: @unchecked Sendable {
    /// How long a page for a device the monitor has not seen waits for presentation-policy's answer.
    static let describeTimeout = 3.0

    private let hub: MonitorHub
    private let queue: FrameQueue
    private let healthOnly: Bool

    /// Routes over `hub`'s model; `queue` wakes the bus worker when a page asks about a device.
    init(hub: MonitorHub, queue: FrameQueue, healthOnly: Bool = false) {
        self.hub = hub
        self.queue = queue
        self.healthOnly = healthOnly
    }

    /// The response to `method` `path` (`device` from the query string, for `/events`);
    /// `deadline` is the one a `wait` gave, when the request is asked again.
    func respond(method: String, path: String, device: String?, deadline: Double? = nil) -> HTTPResponse {
        guard method == "GET" || method == "HEAD" else {
            return text(405, "only GET and HEAD are served\n")
        }
        let now = Timestamp.monotonic()
        switch path {
        case "/metrics":
            let snapshot = hub.snapshot()
            return .page(status: 200, contentType: MetricsText.contentType, body: MetricsText.render(snapshot.model, now: now, monitor: snapshot.counters))
        case "/healthz":
            return hub.snapshot().model.isReady ? text(200, "ok\n") : text(503, "not yet connected to the bus\n")
        case _ where healthOnly:
            return text(404, "this listener serves /healthz and /metrics only\n")
        case "/", "/index.html":
            let snapshot = hub.snapshot()
            return html(200, MonitorPage.overview(snapshot.model, now: now, monitor: snapshot.counters))
        case "/events":
            return .events(device: device.flatMap { $0.isEmpty ? nil : $0 })
        default:
            if path.hasPrefix("/device/"), path.count > "/device/".count {
                return devicePage(String(path.dropFirst("/device/".count)), deadline: deadline)
            }
            return html(404, MonitorPage.notFound(path))
        }
    }

    /// One device's page; for a device not seen yet, presentation-policy is asked first and
    /// the request waits (up to `describeTimeout`) for its answer.
    private func devicePage(_ name: String, deadline: Double?) -> HTTPResponse {
        var snapshot = hub.snapshot()
        if snapshot.model.devices[name] == nil {
            if let deadline {
                if let missing = snapshot.model.missingDevice(name), !snapshot.model.isDescribing(name) {
                    return html(404, MonitorPage.missingDevice(name, message: missing.message, known: snapshot.model.devices.keys.sorted()))
                }
                if Timestamp.monotonic() < deadline { return .wait(seen: snapshot.change, deadline: deadline) }
                return html(504, MonitorPage.noAnswer(name))
            }
            guard hub.update({ model, _ in model.probe(name) }) else {
                return html(503, MonitorPage.plain(title: "Busy", text: "<p>Too many devices are waiting to be described; try again.</p>"))
            }
            queue.poke()
            snapshot = hub.snapshot()
            if snapshot.model.devices[name] == nil {
                return .wait(seen: snapshot.change, deadline: Timestamp.monotonic() + Self.describeTimeout)
            }
        }
        let now = Timestamp.monotonic()
        guard let page = MonitorPage.device(name, model: snapshot.model, now: now, monitor: snapshot.counters) else {
            return html(504, MonitorPage.noAnswer(name))
        }
        return html(200, page)
    }

    private func html(_ status: UInt32, _ body: String) -> HTTPResponse {
        .page(status: status, contentType: "text/html; charset=utf-8", body: body)
    }

    private func text(_ status: UInt32, _ body: String) -> HTTPResponse {
        .page(status: status, contentType: "text/plain; charset=utf-8", body: body)
    }
}
