import Domain
import Foundation
import Testing
import Wire
import TestTiers

/// A heartbeat's counters (a map of integers) read as Foundation's decoder reads the same
/// declaration: the same heartbeat, or a refusal where it refuses; a repeated counter's first
/// value counts, as a repeated field's does.
@Suite(.tags(.unit)) struct HeartbeatDecodingTests {
    /// The heartbeat as the synthesized `Decodable` read it.
    struct Synthesized: Decodable, Equatable {
        var service: String, version: String, pid: Int32, uptimeSeconds: Double, intervalMilliseconds: Int
        var counters: [String: UInt64]
    }

    /// Heartbeat bodies with these counters (and one without any).
    static let bodies: [String] = {
        let counters = [
            #"{}"#, #"{"received":3,"handled":2}"#, #"{"a":1,"a":2}"#, #"{"big":18446744073709551615}"#,
            #"{"over":18446744073709551616}"#, #"{"negative":-1}"#, #"{"float":1.5}"#, #"{"exponent":1e3}"#,
            #"{"text":"3"}"#, #"{"null":null}"#, #"{"nested":{"x":1}}"#, #"{"\u0061":1}"#, "null", "[1,2]", "3", #""x""#,
        ]
        let head = #""service":"roster","version":"1.0","pid":42,"uptimeSeconds":1.5,"intervalMilliseconds":1000"#
        return counters.map { "{\(head),\"counters\":\($0)}" } + ["{\(head)}", #"{"counters":{}}"#]
    }()

    @Test func theCountersAreReadAsFoundationReadsThem() {
        for json in Self.bodies where !json.contains(#"{"a":1,"a":2}"#) {
            let ours = try? JSONCoding.decode(Heartbeat.self, from: Array(json.utf8))
            let theirs = try? JSONDecoder().decode(Synthesized.self, from: Data(json.utf8))
            #expect((ours == nil) == (theirs == nil), "\(json): \(String(describing: ours)) against \(String(describing: theirs))")
            if let ours, let theirs {
                #expect(ours.counters == theirs.counters && ours.service == theirs.service && ours.pid == theirs.pid, "\(json)")
            }
        }
    }

    @Test func aRepeatedCounterKeepsItsFirstValue() throws {
        let json = try #require(Self.bodies.first { $0.contains(#"{"a":1,"a":2}"#) })
        #expect(try JSONCoding.decode(Heartbeat.self, from: Array(json.utf8)).counters == ["a": 1])
    }
}
