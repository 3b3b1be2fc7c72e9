import Domain
import MonitorKit
import Testing
import TestTiers

@Suite(.tags(.unit)) struct MonitorModelTests {
    @Test func aDeviceSeenInAnActionIsDescribedOnceTheMonitorIsReady() {
        var wire = Wire()
        #expect(wire.model.startRequests() == [.ping])
        wire.act("ipad", .tap(Tap(element: "add", profile: .ipad)))
        #expect(wire.model.devices["ipad"] != nil)
        #expect(wire.model.devices["ipad"]?.state == nil)
        let requests = wire.ready()
        #expect(requests == [.status, .rosterSnapshot, .describe("ipad")])
    }

    @Test func theAnswerToADescribeGivesTheStateAndLaterDecisionsChangeIt() {
        var wire = Wire()
        _ = wire.ready()
        wire.act("ipad", .tap(Tap(element: "add", profile: .ipad)))
        wire.answerDescribe("ipad", id: "monitor-describe-1")
        #expect(wire.model.devices["ipad"]?.state?.presentation?.buttons == ["Photo", "Audio"])
        let version = wire.model.devices["ipad"]?.version ?? 0
        wire.act("ipad", .rotate(Rotate(orientation: .landscape)))
        let state = wire.model.devices["ipad"]?.state
        #expect(state?.layout.orientation == .landscape)
        #expect(state?.presentation?.frame.x == 814)
        #expect((wire.model.devices["ipad"]?.version ?? 0) > version)
        wire.act("ipad", .tap(Tap(element: "photo")))
        #expect(wire.model.devices["ipad"]?.state?.presentation == nil)
        #expect(wire.model.devices["ipad"]?.state?.popoverArrowDirection == .unknown)
    }

    /// input-handling's part follows its messages: an input view shown sets the first responder
    /// it belongs to; hidden, the view and its first responder go, and the picker stays created.
    @Test func anInputViewShownThenHiddenSetsThenClearsTheFirstResponder() {
        var wire = Wire()
        _ = wire.ready()
        wire.act("ipad", .tap(Tap(element: "add", profile: .ipad)))
        let none = InputState(firstResponder: nil, input: nil, weaponPickerCreated: false)
        wire.deliver(wire.envelope(.inputState(none), from: "input-handling", device: "ipad"))
        #expect(wire.model.devices["ipad"]?.input == none)
        let picker = InputView(
            view: "weapon-picker", responder: "weapon", width: 768, height: 110,
            frame: Rect(x: 0, y: 914, width: 768, height: 110), buttons: ["fire", "close"])
        wire.deliver(wire.envelope(.inputShown(InputShown(input: picker, created: true, reason: "first-responder")), from: "input-handling", device: "ipad"))
        #expect(wire.model.devices["ipad"]?.input == InputState(firstResponder: "weapon", input: picker, weaponPickerCreated: true))
        wire.deliver(wire.envelope(.inputHidden(InputHidden(input: picker, reason: "closed")), from: "input-handling", device: "ipad"))
        #expect(wire.model.devices["ipad"]?.input == InputState(firstResponder: nil, input: nil, weaponPickerCreated: true))
    }

    @Test func aDeviceThePolicyDoesNotKnowIsForgottenWithItsReason() {
        var wire = Wire()
        _ = wire.ready()
        let accepted = wire.model.probe("ghost")
        #expect(accepted)
        let asked = wire.model.tick(now: wire.now)
        #expect(asked == [.describe("ghost")])
        wire.model.sent(.describe("ghost"), id: "monitor-d", at: wire.now)
        #expect(wire.model.isDescribing("ghost"))
        wire.deliver(wire.envelope(.error(ErrorBody(code: "unknown-device", message: "device 'ghost' is unknown")),
                                   from: "presentation-policy", device: "ghost", correlationId: "monitor-d"))
        #expect(wire.model.devices["ghost"] == nil)
        #expect(wire.model.missingDevice("ghost")?.message == "device 'ghost' is unknown")
        #expect(!wire.model.isDescribing("ghost"))
    }

    @Test func aRestartedServiceMakesTheMonitorDescribeEveryDeviceAgain() {
        var wire = Wire()
        _ = wire.ready()
        wire.act("ipad", .tap(Tap(element: "add", profile: .ipad)))
        wire.answerDescribe("ipad", id: "monitor-describe-1")
        let beat = { (pid: Int32) in Heartbeat(service: "presentation-policy", version: "0.1.0", pid: pid, uptimeSeconds: 1, intervalMilliseconds: 1000, counters: [:]) }
        let first = wire.deliver(wire.envelope(.heartbeat(beat(10)), from: "presentation-policy", device: nil))
        #expect(!first.contains(.describe("ipad")))
        let requests = wire.deliver(wire.envelope(.heartbeat(beat(11)), from: "presentation-policy", device: nil))
        #expect(requests.contains(.describe("ipad")))
        #expect(wire.model.resyncs == 1)
    }

    @Test func aCompletedActionIsInTheTimelineWithItsRoundTripInTheHistogram() {
        var wire = Wire()
        let id = wire.act("ipad", .tap(Tap(element: "add", profile: .ipad)))
        #expect(wire.model.timeline.recent.map(\.action.id) == [id])
        #expect(wire.model.timeline.recent.first?.tracker.isComplete == true)
        #expect(wire.model.latencies["device.tap"]?.count == 1)
        #expect(wire.model.outcomes["device.tap"]?["ok"] == 1)
        let html = MonitorFragments.timeline(wire.model)
        #expect(html.contains("popover add from bar button add"))
        #expect(html.contains("presentation-policy"))
        // Each hop's latency as the monitor saw it, from what caused it: the decision a
        // millisecond after the action (the wire delivers one a millisecond).
        #expect(html.contains("(seen +1.00 ms)"), "\(html)")
    }

    /// On a pair of buses an action's answers may come before the action itself: they are kept
    /// until it comes, and it is complete at once, counted once.
    @Test func anActionWhoseAnswersCameFirstIsCompleteWhenItComes() {
        var wire = Wire()
        _ = wire.ready()
        let id = wire.act("ipad", .tap(Tap(element: "add", profile: .ipad)), actionLast: true)
        #expect(wire.model.timeline.recent.map(\.action.id) == [id])
        #expect(wire.model.timeline.recent.first?.tracker.isComplete == true)
        #expect(wire.model.outcomes["device.tap"]?["ok"] == 1)
        #expect(wire.model.latencies["device.tap"]?.count == 1)
        // Nothing of it is left to expire later.
        _ = wire.model.tick(now: wire.now + 31)
        #expect(wire.model.outcomes["device.tap"]?["expired"] == nil)
        #expect(wire.model.timeline.recent.count == 1)
    }

    /// A client's retry carries the action's id: one record, sent twice, counted once; whether
    /// it comes while the action is still incomplete or after it finished.
    @Test func anActionSentAgainWithItsIdIsOneRecordSentTwice() throws {
        var wire = Wire()
        _ = wire.ready()
        let waiting = wire.envelope(.tap(Tap(element: "add", profile: .ipad)), from: "gateway", device: "ipad")
        wire.deliver(waiting)
        wire.deliver(waiting)
        let id = wire.act("ipad", .tap(Tap(element: "add", profile: .ipad)))
        let finished = try #require(wire.model.timeline.recent.first { $0.action.id == id })
        wire.deliver(finished.action)
        #expect(wire.model.timeline.recent.map(\.action.id) == [id])
        #expect(wire.model.timeline.recent.first?.sends == 2)
        #expect(wire.model.outcomes["device.tap"]?["ok"] == 1)
        #expect(MonitorFragments.timeline(wire.model).contains("sent 2 times"))
        _ = wire.model.tick(now: wire.now + 31)
        #expect(wire.model.timeline.recent.last?.action.id == waiting.id)
        #expect(wire.model.timeline.recent.last?.sends == 2)
        #expect(wire.model.outcomes["device.tap"]?["expired"] == 1)
    }

    /// Answers to actions never seen (a client sending them in a flood) are kept up to a bound,
    /// then dropped; 30 s later they are gone and there is room again.
    @Test func answersToNoActionAreKeptUpToABoundAndForOnlyThirtySeconds() {
        var wire = Wire()
        _ = wire.ready()
        for index in 0..<ActionTimeline.maxEarlyMessages {
            wire.deliver(wire.envelope(.ack(Ack(handled: "device.tap", handledId: "forged-\(index)", emitted: [], forwarded: [])),
                                       from: "presentation-policy", device: "ipad", correlationId: "forged-\(index)"))
        }
        // Full: an action's early answers are not kept, and it is not complete when it comes.
        wire.act("ipad", .tap(Tap(element: "add", profile: .ipad)), actionLast: true)
        #expect(wire.model.outcomes["device.tap"]?["ok"] == nil)
        // In order, an action is followed as ever.
        wire.act("ipad", .tap(Tap(element: "outside")))
        #expect(wire.model.outcomes["device.tap"]?["ok"] == 1)
        wire.now += 31
        _ = wire.model.tick(now: wire.now)
        wire.act("ipad", .tap(Tap(element: "add")), actionLast: true)
        #expect(wire.model.outcomes["device.tap"]?["ok"] == 2)
    }

    @Test func anActionNobodyAcknowledgesExpiresAfterThirtySeconds() {
        var wire = Wire()
        wire.deliver(wire.envelope(.tap(Tap(element: "add", profile: .ipad)), from: "gateway", device: "ipad"))
        _ = wire.model.tick(now: wire.now + 29)
        #expect(wire.model.timeline.recent.isEmpty)
        _ = wire.model.tick(now: wire.now + 31)
        #expect(wire.model.timeline.recent.first?.expired == true)
        #expect(wire.model.outcomes["device.tap"]?["expired"] == 1)
    }

    @Test func theMonitorsOwnMessagesAreNotActions() {
        var wire = Wire()
        wire.deliver(wire.envelope(.describe(Describe()), from: "monitor", device: "ipad"))
        #expect(wire.model.devices.isEmpty)
        #expect(wire.model.received == 1)
    }
}

@Suite(.tags(.unit)) struct MonitorTextTests {
    @Test func metricsNameEveryCounterAndTheRoundTripHistogram() {
        var wire = Wire()
        wire.act("ipad", .tap(Tap(element: "add", profile: .ipad)))
        wire.deliver(wire.envelope(.heartbeat(Heartbeat(
            service: "bus", version: "0.1.0", pid: 1, uptimeSeconds: 2, intervalMilliseconds: 1000,
            counters: ["messagesIn": 7, "sendWaits": 0])), from: "bus", device: nil))
        let text = MetricsText.render(wire.model, now: wire.now + 0.5, monitor: MonitorCounters())
        #expect(text.contains("# TYPE monsterbus_messages_in_total counter\nmonsterbus_messages_in_total{service=\"bus\"} 7\n"))
        #expect(text.contains("monsterbus_service_up{service=\"bus\"} 1\n"))
        #expect(text.contains("monsterbus_service_up{service=\"roster\"} 0\n"))
        #expect(text.contains("monsterbus_heartbeat_age_seconds{service=\"bus\"} 0.5"))
        #expect(text.contains("monsterbus_action_round_trip_seconds_bucket{action=\"device.tap\",le=\"+Inf\"} 1\n"))
        #expect(text.contains("monsterbus_action_round_trip_seconds_count{action=\"device.tap\"} 1\n"))
    }

    /// `service_up` turns 0 once three heartbeat intervals pass without one (as `gateway status`
    /// calls a service stale), and a round trip slower than the largest bound counts in `+Inf` only.
    @Test func aServiceIsDownAfterThreeSilentIntervalsAndASlowRoundTripIsOnlyInTheInfBucket() {
        var wire = Wire()
        wire.deliver(wire.envelope(.heartbeat(Heartbeat(
            service: "roster", version: "0.1.0", pid: 1, uptimeSeconds: 2, intervalMilliseconds: 1000, counters: [:])),
            from: "roster", device: nil))
        let beat = wire.now
        #expect(MetricsText.render(wire.model, now: beat + 2.9, monitor: MonitorCounters()).contains("monsterbus_service_up{service=\"roster\"} 1\n"))
        #expect(MetricsText.render(wire.model, now: beat + 3.5, monitor: MonitorCounters()).contains("monsterbus_service_up{service=\"roster\"} 0\n"))

        let action = wire.envelope(.tap(Tap(element: "add", profile: .ipad)), from: "gateway", device: "ipad")
        wire.deliver(action)
        wire.now += 3
        wire.deliver(wire.envelope(.ack(Ack(handled: action.type.rawValue, handledId: action.id, emitted: [], forwarded: [])),
                                   from: "presentation-policy", device: "ipad", correlationId: action.id))
        let text = MetricsText.render(wire.model, now: wire.now, monitor: MonitorCounters())
        #expect(text.contains("monsterbus_action_round_trip_seconds_bucket{action=\"device.tap\",le=\"2.5\"} 0\n"))
        #expect(text.contains("monsterbus_action_round_trip_seconds_bucket{action=\"device.tap\",le=\"+Inf\"} 1\n"))
    }

    /// Up (`service_up` 1, "up" in the health table) for exactly three heartbeat intervals after
    /// the last heartbeat, stale a millisecond later — as `gateway status` says (`BusRegistry`).
    @Test func aServiceIsUpForExactlyThreeIntervals_staleAMillisecondLater() {
        var wire = Wire()
        let beat = wire.envelope(.heartbeat(Heartbeat(
            service: "roster", version: "0.1.0", pid: 1, uptimeSeconds: 2, intervalMilliseconds: 1000, counters: [:])),
            from: "roster", device: nil)
        _ = wire.model.receive(beat, at: 128)
        for (now, up) in [(131.0, true), (131.001, false)] {
            let metrics = MetricsText.render(wire.model, now: now, monitor: MonitorCounters())
            #expect(metrics.contains("monsterbus_service_up{service=\"roster\"} \(up ? 1 : 0)\n"), "at +\(now - 128) s")
            let health = MonitorFragments.health(wire.model, now: now, monitor: MonitorCounters())
            #expect(health.contains("<tr class=\"\(up ? "up" : "stale")\" data-service=\"roster\">"), "at +\(now - 128) s")
        }
    }

    /// docs/monitor.md: the overview draws up to 24 screens; the others are linked.
    @Test(arguments: [24, 25])
    func theOverviewDrawsUpTo24ScreensAndLinksTheOthers(_ devices: Int) {
        var wire = Wire()
        for index in 0..<devices { wire.act("pad-\(index + 10)", .tap(Tap(element: "add", profile: .ipad))) }
        #expect(wire.model.devices.count == devices)
        let page = MonitorPage.overview(wire.model, now: wire.now, monitor: MonitorCounters())
        #expect(page.components(separatedBy: "<section class=\"device\"").count - 1 == min(devices, MonitorPage.maxScreens))
        #expect(MonitorPage.maxScreens == 24)
        #expect(page.contains("<p class=\"more\">") == (devices > 24))
        #expect(page.contains("<p class=\"more\">and 1 more: <a href=\"/device/pad-34\">pad-34</a></p>") == (devices == 25))
    }

    @Test func anEventStreamSendsOnlyWhatChanged() {
        var wire = Wire()
        _ = wire.ready()
        wire.act("ipad", .tap(Tap(element: "add", profile: .ipad)))
        wire.answerDescribe("ipad", id: "monitor-describe-1")
        var cursor = EventStreamCursor(device: nil)
        let first = cursor.events(wire.model, now: wire.now, monitor: MonitorCounters())
        #expect(first.contains("event: screen\ndata: {\"device\":\"ipad\""))
        #expect(first.contains("event: timeline\n"))
        #expect(first.contains("event: health\n"))
        #expect(first.contains("class=\\\"popover add"))
        #expect(cursor.events(wire.model, now: wire.now + 0.1, monitor: MonitorCounters()).isEmpty)
        wire.act("ipad", .tap(Tap(element: "photo")))
        let next = cursor.events(wire.model, now: wire.now + 0.2, monitor: MonitorCounters())
        #expect(next.contains("event: screen\n"))
        #expect(next.contains("event: timeline\n"))
        #expect(!next.contains("class=\\\"popover add"))
    }

    @Test func everyScreenOnAPageHasItsOwnIds() throws {
        var wire = Wire()
        _ = wire.ready()
        wire.act("ipad", .tap(Tap(element: "add", profile: .ipad)))
        wire.answerDescribe("ipad", id: "monitor-describe-1")
        let svg = MonitorFragments.screen("ipad", try #require(wire.model.devices["ipad"]), model: wire.model) ?? ""
        #expect(svg.contains(" id=\"d69706164-popover\""))
        #expect(svg.contains("clip-path=\"url(#d69706164-window-clip)\""))
        #expect(!svg.contains(" id=\"popover\""))
    }

    @Test func addressesAreParsedWithClearErrors() throws {
        #expect(try MonitorAddress(parsing: "http://127.0.0.1:8080") == MonitorAddress(parsing: "http://localhost:8080/"))
        #expect(try MonitorAddress(parsing: "http://0.0.0.0:0").port == 0)
        #expect(throws: AddressError.self) { try MonitorAddress(parsing: "127.0.0.1:8080") }
        #expect(throws: AddressError.self) { try MonitorAddress(parsing: "http://127.0.0.1:99999") }
        #expect(throws: AddressError.self) { try MonitorAddress(parsing: "http://example.com:80") }
    }

    @Test func textIsEscapedForHTMLAndJSON() {
        #expect(HTML.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;")
        #expect(HTML.jsonString("a\"b\\c\n</script>") == "\"a\\\"b\\\\c\\n\\u003c/script>\"")
    }
}
