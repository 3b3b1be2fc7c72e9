import Domain
import MonitorKit
import Testing
import TestTiers

/// `/metrics` series by series: every sample's name, each of its labels and their values, and
/// its value, for a model where each label takes more than one value (so a label swapped,
/// dropped or misspelt changes a line).
@Suite(.tags(.unit)) struct MetricsLabelsTests {
    /// What the monitor heard, at times exact in binary (round trips of 2⁻¹¹ s, 2⁻⁹ s and ¼ s):
    /// the bus and presentation-policy heard half a second ago, input-handling 4.5 s ago (three
    /// intervals: down), roster never; two taps answered, one refused, a rotation nobody answered
    /// (expired after 30 s); presentation-policy restarted once (a resync).
    static func model() -> MonitorModel {
        var wire = Wire()
        func beat(_ service: String, pid: Int32, uptime: Double, _ counters: [String: UInt64], at time: Double) {
            let heartbeat = Heartbeat(service: service, version: "0.1.0", pid: pid, uptimeSeconds: uptime, intervalMilliseconds: 1000, counters: counters)
            _ = wire.model.receive(wire.envelope(.heartbeat(heartbeat), from: service, device: nil), at: time)
        }
        beat("presentation-policy", pid: 10, uptime: 1, ["received": 1], at: 62)

        for (sent, acknowledged) in [(63.0, 63.00048828125), (64.0, 64.001953125)] {
            let answered = wire.envelope(.tap(Tap(element: "add", profile: .ipad)), from: "gateway", device: "ipad")
            _ = wire.model.receive(answered, at: sent)
            _ = wire.model.receive(wire.envelope(.ack(Ack(handled: "device.tap", handledId: answered.id, emitted: [], forwarded: [])),
                                                 from: "presentation-policy", device: "ipad", correlationId: answered.id), at: acknowledged)
        }

        let refused = wire.envelope(.tap(Tap(element: "photo", profile: .iphone)), from: "gateway", device: "iphone")
        _ = wire.model.receive(refused, at: 65)
        let error = wire.envelope(.error(ErrorBody(code: "no-such-element", message: "'photo' is not on screen")),
                                  from: "presentation-policy", device: "iphone", correlationId: refused.id)
        _ = wire.model.receive(error, at: 65.125)
        _ = wire.model.receive(wire.envelope(.ack(Ack(handled: "device.tap", handledId: refused.id, emitted: [error.id], forwarded: [])),
                                             from: "presentation-policy", device: "iphone", correlationId: refused.id), at: 65.25)

        _ = wire.model.receive(wire.envelope(.rotate(Rotate(orientation: .landscape)), from: "gateway", device: "ipad"), at: 66)
        _ = wire.model.tick(now: 97)

        beat("input-handling", pid: 11, uptime: 9, ["received": 1], at: 96.5)
        beat("bus", pid: 1, uptime: 2, ["messagesIn": 7, "refusedTopic": 2], at: 100.5)
        beat("presentation-policy", pid: 12, uptime: 5, ["received": 3, "refusedOverload": 1], at: 100.5)
        return wire.model
    }

    static func rendered() -> String {
        var counters = MonitorCounters()
        counters.received = 11
        counters.dropped = 3
        return MetricsText.render(model(), now: 101, monitor: counters)
    }

    @Test func everySampleHasExactlyItsLabelsAndValue() {
        let samples = Self.rendered().split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        let buckets = [("0.0005", 1), ("0.001", 1), ("0.0025", 2), ("0.005", 2), ("0.01", 2), ("0.025", 2), ("0.05", 2),
                       ("0.1", 2), ("0.25", 3), ("0.5", 3), ("1.0", 3), ("2.5", 3), ("+Inf", 3)]
        let expected = [
            // Each heartbeat counter, per service that counts it.
            #"monsterbus_messages_in_total{service="bus"} 7"#,
            #"monsterbus_received_total{service="input-handling"} 1"#,
            #"monsterbus_received_total{service="presentation-policy"} 3"#,
            #"monsterbus_refused_overload_total{service="presentation-policy"} 1"#,
            #"monsterbus_refused_topic_total{service="bus"} 2"#,
            // Every expected service, heard or not.
            #"monsterbus_service_up{service="bus"} 1"#,
            #"monsterbus_service_up{service="input-handling"} 0"#,
            #"monsterbus_service_up{service="presentation-policy"} 1"#,
            #"monsterbus_service_up{service="roster"} 0"#,
            #"monsterbus_heartbeat_age_seconds{service="bus"} 0.5"#,
            #"monsterbus_heartbeat_age_seconds{service="input-handling"} 4.5"#,
            #"monsterbus_heartbeat_age_seconds{service="presentation-policy"} 0.5"#,
            #"monsterbus_uptime_seconds{service="bus"} 2.0"#,
            #"monsterbus_uptime_seconds{service="input-handling"} 9.0"#,
            #"monsterbus_uptime_seconds{service="presentation-policy"} 5.0"#,
        ] + buckets.map { #"monsterbus_action_round_trip_seconds_bucket{action="device.tap",le="\#($0.0)"} \#($0.1)"# } + [
            #"monsterbus_action_round_trip_seconds_sum{action="device.tap"} 0.25244140625"#,
            #"monsterbus_action_round_trip_seconds_count{action="device.tap"} 3"#,
            #"monsterbus_actions_total{action="device.rotate",outcome="expired"} 1"#,
            #"monsterbus_actions_total{action="device.tap",outcome="ok"} 2"#,
            #"monsterbus_actions_total{action="device.tap",outcome="refused"} 1"#,
            "monsterbus_monitor_messages_total 11",
            "monsterbus_monitor_dropped_total 3",
            "monsterbus_monitor_resyncs_total 1",
            "monsterbus_monitor_devices 2",
        ]
        #expect(samples == expected, "unexpected: \(samples.filter { !expected.contains($0) }); missing: \(expected.filter { !samples.contains($0) })")
    }

    @Test func everyFamilyIsDeclaredOnceWithItsType() {
        let types = Self.rendered().split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }.map { $0.dropFirst("# TYPE ".count) }
        #expect(types == [
            "monsterbus_messages_in_total counter", "monsterbus_received_total counter",
            "monsterbus_refused_overload_total counter", "monsterbus_refused_topic_total counter",
            "monsterbus_service_up gauge", "monsterbus_heartbeat_age_seconds gauge", "monsterbus_uptime_seconds gauge",
            "monsterbus_action_round_trip_seconds histogram", "monsterbus_actions_total counter",
            "monsterbus_monitor_messages_total counter", "monsterbus_monitor_dropped_total counter",
            "monsterbus_monitor_resyncs_total counter", "monsterbus_monitor_devices gauge",
        ])
        let helps = Self.rendered().split(separator: "\n").filter { $0.hasPrefix("# HELP ") }
        #expect(helps.count == types.count)
    }

    /// A label value is escaped as the exposition format says: `\`, `"` and a newline.
    @Test func aLabelValueIsEscaped() {
        var wire = Wire()
        let heartbeat = Heartbeat(service: "odd\"name\\\n", version: "0.1.0", pid: 1, uptimeSeconds: 1, intervalMilliseconds: 1000, counters: [:])
        _ = wire.model.receive(wire.envelope(.heartbeat(heartbeat), from: "odd", device: nil), at: 10)
        let text = MetricsText.render(wire.model, now: 10, monitor: MonitorCounters())
        #expect(text.contains(#"monsterbus_service_up{service="odd\"name\\\n"} 1"#), "\(text)")
    }
}
