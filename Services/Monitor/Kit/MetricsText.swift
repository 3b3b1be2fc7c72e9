import Domain

/// `/metrics` in the Prometheus text exposition format (version 0.0.4): every counter of every
/// service and of the bus from their heartbeats (`monsterbus_<counter>_total{service=…}`), each
/// service's heartbeat age, uptime and whether it is up, the round trip of actions per type
/// (`monsterbus_action_round_trip_seconds`, a histogram), and the monitor's own counters.
public enum MetricsText {
    /// The content type of the exposition format.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The whole exposition for `model` at `now`.
    public static func render(_ model: MonitorModel, now: Double, monitor: MonitorCounters) -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        func sample(_ name: String, _ labels: [(String, String)], _ value: String) {
            let text = labels.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: ",")
            out += name + (text.isEmpty ? "" : "{\(text)}") + " " + value + "\n"
        }
        let heard = model.services.values.sorted { $0.heartbeat.service < $1.heartbeat.service }

        // Every counter of every heartbeat, one family per counter name.
        var byCounter: [String: [(String, UInt64)]] = [:]
        var original: [String: String] = [:]
        for beat in heard.map(\.heartbeat) {
            for (key, value) in beat.counters {
                byCounter[metricName(key), default: []].append((beat.service, value))
                original[metricName(key)] = key
            }
        }
        for name in byCounter.keys.sorted() {
            let family = "monsterbus_\(name)_total"
            out += "# HELP \(family) The '\(original[name] ?? name)' counter of each service's (and the bus's) heartbeat, as gateway status shows it.\n# TYPE \(family) counter\n"
            for (service, value) in byCounter[name]!.sorted(by: { $0.0 < $1.0 }) { sample(family, [("service", service)], String(value)) }
        }

        let expected = Set([MonsterBus.Service.bus] + MonsterBus.Service.all)
        let names = Set(heard.map(\.heartbeat.service)).union(expected).sorted()
        family("monsterbus_service_up", "gauge", "1 while the service's last heartbeat is at most three intervals old; 0 when stale or never heard.")
        for name in names {
            let up = model.services[name].map { now - $0.at <= 3 * Double($0.heartbeat.intervalMilliseconds) / 1000 } ?? false
            sample("monsterbus_service_up", [("service", name)], up ? "1" : "0")
        }
        family("monsterbus_heartbeat_age_seconds", "gauge", "Seconds since the service's last heartbeat.")
        for beat in heard { sample("monsterbus_heartbeat_age_seconds", [("service", beat.heartbeat.service)], number(max(0, now - beat.at))) }
        family("monsterbus_uptime_seconds", "gauge", "The service's uptime in its last heartbeat.")
        for beat in heard { sample("monsterbus_uptime_seconds", [("service", beat.heartbeat.service)], number(beat.heartbeat.uptimeSeconds)) }

        family("monsterbus_action_round_trip_seconds", "histogram",
               "Seconds from an action to its last acknowledgement, as the monitor saw them on the bus, by action type.")
        for type in model.latencies.keys.sorted() {
            let histogram = model.latencies[type]!
            for (index, bound) in LatencyHistogram.bounds.enumerated() {
                sample("monsterbus_action_round_trip_seconds_bucket", [("action", type), ("le", number(bound))], String(histogram.buckets[index]))
            }
            sample("monsterbus_action_round_trip_seconds_bucket", [("action", type), ("le", "+Inf")], String(histogram.count))
            sample("monsterbus_action_round_trip_seconds_sum", [("action", type)], number(histogram.sum))
            sample("monsterbus_action_round_trip_seconds_count", [("action", type)], String(histogram.count))
        }
        family("monsterbus_actions_total", "counter", "Actions seen on the bus, by type and outcome (ok, refused, expired: not acknowledged within 30 s).")
        for type in model.outcomes.keys.sorted() {
            for (outcome, value) in model.outcomes[type]!.sorted(by: { $0.key < $1.key }) {
                sample("monsterbus_actions_total", [("action", type), ("outcome", outcome)], String(value))
            }
        }

        family("monsterbus_monitor_messages_total", "counter", "Messages the monitor read from the bus.")
        sample("monsterbus_monitor_messages_total", [], String(monitor.received))
        family("monsterbus_monitor_dropped_total", "counter", "Messages the monitor could not keep up with and dropped (it then describes every device again).")
        sample("monsterbus_monitor_dropped_total", [], String(monitor.dropped))
        family("monsterbus_monitor_resyncs_total", "counter", "Times the monitor described every device again (a restart, a gap, its own drops).")
        sample("monsterbus_monitor_resyncs_total", [], String(model.resyncs))
        family("monsterbus_monitor_devices", "gauge", "Devices the monitor knows.")
        sample("monsterbus_monitor_devices", [], String(model.devices.count))
        return out
    }

    /// `refusedOverload` → `refused_overload`; anything but letters, digits and `_` becomes `_`.
    static func metricName(_ counter: String) -> String {
        var result = ""
        for character in counter {
            if character.isASCII && character.isUppercase {
                if !result.isEmpty && result.last != "_" { result += "_" }
                result += character.lowercased()
            } else if character.isASCII && (character.isLetter || character.isNumber) {
                result.append(character)
            } else {
                result += "_"
            }
        }
        return result.isEmpty ? "unnamed" : result
    }

    private static func escape(_ value: String) -> String {
        value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n")
    }

    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return value > 0 ? "+Inf" : value < 0 ? "-Inf" : "NaN" }
        return String(value)
    }
}
