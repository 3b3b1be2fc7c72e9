import MonitorKit
import Wire

/// What each path serves: `/` the overview, `/device/NAME` one device, `/events` the live
/// updates, `/metrics` Prometheus's text, `/healthz` whether the monitor hears the bus;
/// anything else is a 404 page, and methods other than GET and HEAD a 405.
final class Router: @unchecked Sendable {
    /// How long a page for a device the monitor has not seen waits for presentation-policy's answer.
    static let describeTimeout = 3.0

    private let hub: MonitorHub
    private let queue: FrameQueue

    /// Routes over `hub`'s model; `queue` wakes the bus worker when a page asks about a device.
    init(hub: MonitorHub, queue: FrameQueue) {
        self.hub = hub
        self.queue = queue
    }

    /// The response to `method` `path` (`device` from the query string, for `/events`).
    func respond(method: String, path: String, device: String?) -> HTTPResponse {
        guard method == "GET" || method == "HEAD" else {
            return .page(status: 405, contentType: "text/plain; charset=utf-8", body: "only GET and HEAD are served\n")
        }
        let now = Timestamp.monotonic()
        switch path {
        case "/", "/index.html":
            let snapshot = hub.snapshot()
            return html(200, MonitorPage.overview(snapshot.model, now: now, monitor: snapshot.counters))
        case "/events":
            return .events(EventStream(hub: hub, device: device.flatMap { $0.isEmpty ? nil : $0 }))
        case "/metrics":
            let snapshot = hub.snapshot()
            return .page(status: 200, contentType: MetricsText.contentType, body: MetricsText.render(snapshot.model, now: now, monitor: snapshot.counters))
        case "/healthz":
            return hub.snapshot().model.isReady
                ? .page(status: 200, contentType: "text/plain; charset=utf-8", body: "ok\n")
                : .page(status: 503, contentType: "text/plain; charset=utf-8", body: "not yet connected to the bus\n")
        default:
            if path.hasPrefix("/device/"), path.count > "/device/".count {
                return devicePage(String(path.dropFirst("/device/".count)))
            }
            return html(404, MonitorPage.notFound(path))
        }
    }

    /// One device's page; for a device not seen yet, presentation-policy is asked first.
    private func devicePage(_ name: String) -> HTTPResponse {
        var snapshot = hub.snapshot()
        if snapshot.model.devices[name] == nil {
            guard hub.update({ model, _ in model.probe(name) }) else {
                return html(503, MonitorPage.plain(title: "Busy", text: "<p>Too many devices are waiting to be described; try again.</p>"))
            }
            queue.poke()
            let deadline = Timestamp.monotonic() + Self.describeTimeout
            snapshot = hub.snapshot()
            while snapshot.model.devices[name] == nil, Timestamp.monotonic() < deadline {
                if let missing = snapshot.model.missingDevice(name), !snapshot.model.isDescribing(name) {
                    return html(404, MonitorPage.missingDevice(name, message: missing.message, known: snapshot.model.devices.keys.sorted()))
                }
                snapshot = hub.snapshot(changedSince: snapshot.change, timeout: 0.2)
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
}
