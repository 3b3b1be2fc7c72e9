import ProcessSupport
import Testing
import TestTiers

/// docs/configuration.md: a number out of range stops a process with a line naming the variable.
/// Each range holds at both ends and refuses one past either.
@Suite(.tags(.unit)) struct ConfigurationRangeTests {
    /// A numeric variable of `BusConfig`, its range, and where its value lands.
    struct Bound: Sendable, CustomTestStringConvertible {
        let name: String
        let range: ClosedRange<Int>
        let read: @Sendable (BusConfig) -> Int
        var testDescription: String { "\(name) \(range)" }
    }

    static let bounds = [
        Bound(name: "HEARTBEAT_INTERVAL_MS", range: 10...60_000) { $0.heartbeatIntervalMilliseconds },
        Bound(name: "BUS_MAX_MESSAGE_BYTES", range: 1024...16_777_216) { $0.maxMessageBytes },
        Bound(name: "BUS_HWM", range: 100...10_000_000) { Int($0.highWaterMark) },
        Bound(name: "ACTION_TTL_MS", range: 10...3_600_000) { $0.actionTimeToLiveMilliseconds },
        Bound(name: "CLOCK_SKEW_MS", range: 0...600_000) { $0.clockSkewMilliseconds },
        Bound(name: "IDEMPOTENCE_WINDOW", range: 100...10_000_000) { $0.idempotenceWindow },
        Bound(name: "SHUTDOWN_DEADLINE_MS", range: 0...3_600_000) { $0.shutdownDeadlineMilliseconds },
    ]

    @Test(arguments: bounds)
    func bothEndsAreTakenAndOnePastEitherIsRefusedNamingTheVariable(_ bound: Bound) throws {
        for value in [bound.range.lowerBound, bound.range.upperBound] {
            #expect(bound.read(try BusConfig.fromEnvironment([bound.name: String(value)])) == value, "\(bound.name)=\(value)")
        }
        for value in [bound.range.lowerBound - 1, bound.range.upperBound + 1] {
            let error = #expect(throws: ConfigError.self, "\(bound.name)=\(value)") {
                try BusConfig.fromEnvironment([bound.name: String(value)])
            }
            #expect(error?.description.contains(bound.name) == true, "\(error?.description ?? "")")
        }
    }

    /// Every variable in the table is one `BusConfig` reads (a renamed one would be missed here).
    @Test func theBoundsCoverTheConnectionsNumericVariables() {
        let numeric = Set(Self.bounds.map(\.name))
        let connection = Set(EnvironmentVariable.connection.map(\.name))
        #expect(numeric.isSubset(of: connection))
        #expect(numeric.count == Self.bounds.count)
    }
}
