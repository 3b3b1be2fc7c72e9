/// The monitor's HTML pages: the overview, one device's page, and the error pages.
public enum MonitorPage {
    /// Devices drawn on the overview at most; the others are listed with a link to their page.
    public static let maxScreens = 24

    /// The overview: every device's screen (up to `maxScreens`), the health table, the timeline;
    /// kept live by `/events`.
    public static func overview(_ model: MonitorModel, now: Double, monitor: MonitorCounters) -> String {
        let names = model.devices.keys.sorted()
        let shown = names.prefix(maxScreens)
        var cards = shown.map { name in
            "<section class=\"device\" data-device=\"\(HTML.escape(name))\">" + MonitorFragments.card(name, model.devices[name]!, model: model) + "</section>"
        }.joined()
        if names.count > maxScreens {
            cards += "<p class=\"more\">and \(names.count - maxScreens) more: "
                + names.dropFirst(maxScreens).prefix(200).map { "<a href=\"/device/\(HTML.escape(MonitorFragments.percentEncoded($0)))\">\(HTML.escape($0))</a>" }.joined(separator: " ")
                + "</p>"
        }
        return document(
            title: "Monster Bus monitor", device: nil,
            main: "<section id=\"devices\" class=\"devices\">\(cards)</section>"
                + "<p id=\"no-devices\" class=\"waiting\"\(names.isEmpty ? "" : " hidden")>no device yet: try <code>gateway --device ipad tap add</code></p>",
            side: side(model, now: now, monitor: monitor))
    }

    /// One device's page, kept live by `/events?device=…`.
    public static func device(_ name: String, model: MonitorModel, now: Double, monitor: MonitorCounters) -> String? {
        guard let view = model.devices[name] else { return nil }
        return document(
            title: "\(name) — Monster Bus monitor", device: name,
            main: "<p><a href=\"/\">← every device</a></p><section id=\"devices\" class=\"devices\"><section class=\"device\" data-device=\"\(HTML.escape(name))\">"
                + MonitorFragments.card(name, view, model: model) + "</section></section>",
            side: side(model, now: now, monitor: monitor))
    }

    /// The page for a device presentation-policy does not know.
    public static func missingDevice(_ name: String, message: String, known: [String]) -> String {
        let list = known.isEmpty ? "no device is known yet" : "known devices: " + known.prefix(200).map {
            "<a href=\"/device/\(HTML.escape(MonitorFragments.percentEncoded($0)))\">\(HTML.escape($0))</a>"
        }.joined(separator: ", ")
        return plain(
            title: "No device “\(name)”",
            text: "<p>presentation-policy does not know a device “\(HTML.escape(name))”: <q>\(HTML.escape(message))</q></p>"
                + "<p>A device exists once a gateway has acted as it, e.g. <code>gateway --device \(HTML.escape(name)) --profile ipad tap add</code>; \(list).</p>")
    }

    /// The page when presentation-policy did not answer about a device in time.
    public static func noAnswer(_ name: String) -> String {
        plain(title: "No answer about “\(name)”",
              text: "<p>presentation-policy did not answer a <code>device.describe</code> for “\(HTML.escape(name))” in time: is it running? See the health table on <a href=\"/\">the overview</a>.</p>")
    }

    /// The page for a path the monitor does not serve.
    public static func notFound(_ path: String) -> String {
        plain(title: "Not found",
              text: "<p>There is nothing at <code>\(HTML.escape(path))</code>. The monitor serves <a href=\"/\">/</a> (every device), "
                + "<code>/device/NAME</code> (one device), <code>/events</code> (Server-Sent Events) and <a href=\"/metrics\">/metrics</a> (Prometheus).</p>")
    }

    /// A short page with a heading and `text` (HTML).
    public static func plain(title: String, text: String) -> String {
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(HTML.escape(title))</title>"
            + "<style>body{font:15px/1.5 system-ui,sans-serif;margin:2em;max-width:50em}code{background:#eee;padding:0 .2em}</style></head>"
            + "<body><h1>\(HTML.escape(title))</h1>\(text)</body></html>"
    }

    private static func side(_ model: MonitorModel, now: Double, monitor: MonitorCounters) -> String {
        "<section><h2>Services</h2><div id=\"health\">" + MonitorFragments.health(model, now: now, monitor: monitor) + "</div></section>"
            + "<section><h2>Timeline</h2><div id=\"timeline\">" + MonitorFragments.timeline(model) + "</div></section>"
    }

    private static func document(title: String, device: String?, main: String, side: String) -> String {
        let events = device.map { "/events?device=" + MonitorFragments.percentEncoded($0) } ?? "/events"
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(HTML.escape(title))</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>
            body{font:14px/1.4 system-ui,sans-serif;margin:0;background:#f2f2f7;color:#1c1c1e}
            header{background:#1c1c1e;color:#fff;padding:.6em 1em;display:flex;gap:1em;align-items:baseline}
            header h1{font-size:1.2em;margin:0}#connection{font-size:.9em;color:#8e8e93}#connection.live{color:#34c759}#connection.reconnecting{color:#ff9500}
            .layout{display:flex;flex-wrap:wrap;gap:1em;padding:1em}
            main{flex:2 1 600px}aside{flex:1 1 420px;min-width:0}
            .devices{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start}
            .device{background:#fff;border-radius:10px;padding:.6em .8em;box-shadow:0 1px 3px #0002}
            .device h2{font-size:1.05em;margin:0}.device h2 a{color:inherit;text-decoration:none}
            .caption{color:#6e6e73;font-size:.85em;margin:.2em 0 .5em;max-width:30em}
            .screen svg{width:auto;height:auto;max-width:560px;max-height:600px;display:block}
            section>h2{font-size:1.05em}
            table.status{border-collapse:collapse;font:12px ui-monospace,monospace;width:100%;background:#fff}
            table.status td,table.status th{padding:.2em .4em;border-bottom:1px solid #e5e5ea;text-align:left;vertical-align:top}
            tr.stale td,tr.missing td{color:#ff3b30;font-weight:600}.counters{word-break:break-word}
            dl.bus{display:flex;flex-wrap:wrap;gap:.3em 1.2em;font:12px ui-monospace,monospace;margin:0}dl.bus dt{color:#6e6e73}dl.bus dd{margin:0}
            ol.actions{list-style:none;padding:0;margin:0;font-size:12px}
            li.action{background:#fff;border-radius:8px;padding:.4em .6em;margin:.4em 0;border-left:4px solid #34c759}
            li.action.refused{border-color:#ff9500}li.action.expired{border-color:#ff3b30}
            .hops{margin:.2em 0 0 1em;padding:0;font:11px ui-monospace,monospace;color:#3a3a3c}
            .service{color:#007aff}.latency{color:#8e8e93}.time{color:#8e8e93;font-family:ui-monospace,monospace}
            .waiting{color:#8e8e93}
            </style></head>
            <body><header><h1>Monster Bus monitor</h1><span id="connection">connecting…</span></header>
            <div class="layout"><main>\(main)</main><aside>\(side)</aside></div>
            <script>
            (function () {
              const connection = document.getElementById('connection');
              const devices = document.getElementById('devices');
              const single = \(device.map { HTML.jsonString($0) } ?? "null");
              function card(name) {
                for (const element of devices.querySelectorAll('section.device')) {
                  if (element.dataset.device === name) return element;
                }
                return null;
              }
              // EventSource retries by itself after a dropped stream, but not after a refusal (503 when
              // the monitor has too many viewers): then the page waits the Retry-After and tries again.
              function connect() {
                const source = new EventSource(\(HTML.jsonString(events)));
                source.onopen = function () { connection.textContent = 'live'; connection.className = 'live'; };
                source.onerror = function () {
                  connection.textContent = 'reconnecting…'; connection.className = 'reconnecting';
                  if (source.readyState === EventSource.CLOSED) setTimeout(connect, \(MonitorLimits.retryAfter * 1000) * (0.5 + Math.random()));
                };
                source.addEventListener('screen', function (event) {
                  const data = JSON.parse(event.data);
                  let element = card(data.device);
                  if (!element) {
                    element = document.createElement('section');
                    element.className = 'device';
                    element.dataset.device = data.device;
                    const after = Array.from(devices.querySelectorAll('section.device')).find(function (other) { return other.dataset.device > data.device; });
                    devices.insertBefore(element, after || null);
                  }
                  element.innerHTML = data.html;
                  const none = document.getElementById('no-devices');
                  if (none) none.hidden = true;
                });
                source.addEventListener('gone', function (event) {
                  const data = JSON.parse(event.data);
                  const element = card(data.device);
                  if (element && single === null) element.remove();
                  else if (element) element.querySelector('.caption').textContent = 'presentation-policy no longer knows this device';
                });
                source.addEventListener('health', function (event) { document.getElementById('health').innerHTML = JSON.parse(event.data).html; });
                source.addEventListener('timeline', function (event) { document.getElementById('timeline').innerHTML = JSON.parse(event.data).html; });
              }
              connect();
            })();
            </script></body></html>
            """
    }
}
