import MonitorKit
import Testing
import TestTiers

/// The monitor's limits from the environment, the health listener's address, and how
/// libmicrohttpd's messages are rate-limited in its log.
@Suite(.tags(.unit)) struct MonitorLimitsTests {
    @Test func unsetOrEmptyVariablesKeepTheDefaults() throws {
        #expect(try MonitorLimits(environment: [:]) == MonitorLimits())
        #expect(try MonitorLimits(environment: ["MONITOR_MAX_STREAMS": ""]) == MonitorLimits())
        let defaults = MonitorLimits()
        #expect(defaults.maxConnections == 2048 && defaults.maxConnectionsPerAddress == 128)
        #expect(defaults.maxStreams == 1024 && defaults.requestTimeout == 5)
    }

    @Test func eachVariableSetsItsLimit() throws {
        let limits = try MonitorLimits(environment: [
            "MONITOR_MAX_CONNECTIONS": "3000", "MONITOR_MAX_CONNECTIONS_PER_ADDRESS": "1400",
            "MONITOR_MAX_STREAMS": "300", "MONITOR_REQUEST_TIMEOUT_SECONDS": "3",
        ])
        #expect(limits.maxConnections == 3000 && limits.maxConnectionsPerAddress == 1400)
        #expect(limits.maxStreams == 300 && limits.requestTimeout == 3)
        #expect(try MonitorLimits(environment: ["MONITOR_MAX_STREAMS": "0"]).maxStreams == 0)
    }

    @Test func badValuesAreRefusedNamingTheVariable() {
        let bad: [(String, String)] = [
            ("MONITOR_MAX_CONNECTIONS", "0"), ("MONITOR_MAX_CONNECTIONS", "-5"), ("MONITOR_MAX_CONNECTIONS", "+5"),
            ("MONITOR_MAX_CONNECTIONS", "many"), ("MONITOR_MAX_CONNECTIONS", "99999999999999999999"),
            ("MONITOR_MAX_STREAMS", "1.5"), ("MONITOR_REQUEST_TIMEOUT_SECONDS", "0"),
            ("MONITOR_REQUEST_TIMEOUT_SECONDS", "3601"), ("MONITOR_MAX_CONNECTIONS_PER_ADDRESS", " 4"),
        ]
        for (name, value) in bad {
            #expect(throws: LimitsError.self, "\(name)=\(value)") { try MonitorLimits(environment: [name: value]) }
            do {
                _ = try MonitorLimits(environment: [name: value])
            } catch {
                #expect(error.description.contains(name), "\(error)")
            }
        }
        #expect(throws: LimitsError.self) {
            try MonitorLimits(environment: ["MONITOR_MAX_CONNECTIONS": "100", "MONITOR_MAX_CONNECTIONS_PER_ADDRESS": "101"])
        }
    }

    /// Each limit's range holds at both ends and refuses one past either; the per-address limit
    /// may equal the total, not exceed it.
    @Test(arguments: [
        ("MONITOR_MAX_CONNECTIONS", 1, 1_000_000), ("MONITOR_MAX_CONNECTIONS_PER_ADDRESS", 1, 1_000_000),
        ("MONITOR_MAX_STREAMS", 0, 1_000_000), ("MONITOR_REQUEST_TIMEOUT_SECONDS", 1, 3600),
    ])
    func eachRangeHoldsAtBothEnds(_ name: String, _ lowest: Int, _ highest: Int) throws {
        // The total at its largest and the per-address limit at its least, so that neither
        // bounds the other: each is judged on its own range.
        let room = ["MONITOR_MAX_CONNECTIONS": "1000000", "MONITOR_MAX_CONNECTIONS_PER_ADDRESS": "1"]
        for value in [lowest, highest] {
            let limits = try MonitorLimits(environment: room.merging([name: String(value)]) { $1 })
            let read = switch name {
            case "MONITOR_MAX_CONNECTIONS": limits.maxConnections
            case "MONITOR_MAX_CONNECTIONS_PER_ADDRESS": limits.maxConnectionsPerAddress
            case "MONITOR_MAX_STREAMS": limits.maxStreams
            default: limits.requestTimeout
            }
            #expect(read == value, "\(name)=\(value)")
        }
        for value in [lowest - 1, highest + 1] {
            let error = #expect(throws: LimitsError.self, "\(name)=\(value)") {
                try MonitorLimits(environment: room.merging([name: String(value)]) { $1 })
            }
            #expect(error?.description.contains(name) == true)
        }
        let equal = try MonitorLimits(environment: ["MONITOR_MAX_CONNECTIONS": "100", "MONITOR_MAX_CONNECTIONS_PER_ADDRESS": "100"])
        #expect(equal.maxConnectionsPerAddress == 100)
    }

    @Test func limitsAreFittedToTheOpenFilesAllowed() throws {
        let limits = try MonitorLimits(environment: ["MONITOR_MAX_CONNECTIONS": "4000", "MONITOR_MAX_CONNECTIONS_PER_ADDRESS": "3000"])
        #expect(limits.fitting(descriptors: 20_000) == nil)
        let fitted = try #require(limits.fitting(descriptors: 1024))
        #expect(fitted.maxConnections == 1024 - 128 - MonitorLimits.healthConnections)
        #expect(fitted.maxConnectionsPerAddress == fitted.maxConnections)
        #expect(fitted.maxStreams == fitted.maxConnections)
        #expect(fitted.requestTimeout == limits.requestTimeout)
    }

    @Test func theHealthListenerIsTheNextPortUnlessSet() throws {
        let page = try MonitorAddress(parsing: "http://0.0.0.0:8080")
        #expect(try page.healthAddress(nil) == MonitorAddress(parsing: "http://0.0.0.0:8081"))
        #expect(try page.healthAddress("") == MonitorAddress(parsing: "http://0.0.0.0:8081"))
        #expect(try page.healthAddress("http://127.0.0.1:9000") == MonitorAddress(parsing: "http://127.0.0.1:9000"))
        #expect(try MonitorAddress(parsing: "http://127.0.0.1:0").healthAddress(nil).port == 0)
        #expect(throws: AddressError.self) { try MonitorAddress(parsing: "http://127.0.0.1:65535").healthAddress(nil) }
        do {
            _ = try page.healthAddress("localhost")
            Issue.record("a health address without http:// was accepted")
        } catch {
            #expect(error.description.contains("MONITOR_HEALTH_ADDRESS"))
        }
    }

    @Test func aFloodOfServerMessagesIsTheFirstLineThenACountPerInterval() {
        var throttle = ServerMessageThrottle(interval: 10)
        let limit = "Server reached connection limit. Closing inbound connection.\n"
        let first = throttle.line(for: limit, kind: limit, now: 100)
        #expect(first?.hasPrefix("http: Server reached connection limit. Closing inbound connection. (") == true)
        #expect(first?.contains("\n") == false)
        var written = 0
        for step in 1..<5000 where throttle.line(for: limit, kind: limit, now: 100 + Double(step) / 1000) != nil { written += 1 }
        #expect(written == 0)
        // Another kind is written at once, in the same interval.
        let other = "Error processing request: bad header %s\n"
        #expect(throttle.line(for: "Error processing request: bad header x\n", kind: other, now: 104) != nil)
        let summary = throttle.line(for: limit, kind: limit, now: 110)
        #expect(summary?.contains("and 4999 more like it") == true, "\(summary ?? "nil")")
        // A minute of 1,000 refusals a second writes at most one line per 10 s.
        var lines = 0
        for step in 0..<60_000 where throttle.line(for: limit, kind: limit, now: 120 + Double(step) / 1000) != nil { lines += 1 }
        #expect(lines <= 6)
    }

    @Test func manyKindsShareOneThrottlePastTheBound() {
        var throttle = ServerMessageThrottle(interval: 10)
        var written = 0
        for kind in 0..<1000 where throttle.line(for: "message \(kind)", kind: "kind \(kind)", now: 50) != nil { written += 1 }
        #expect(written == ServerMessageThrottle.maxKinds + 1)
    }
}
