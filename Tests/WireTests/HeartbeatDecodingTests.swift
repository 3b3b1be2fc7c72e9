import Domain
import Foundation
import Testing
import Wire

/// A heartbeat's own `init(from:)` reads its counters a value at a time: for every input it
/// must decode what the synthesized decoder, with the dictionary's own, decoded — the same
/// heartbeat, or an error of the same description — with our decoder and with Foundation's.
@Suite struct HeartbeatDecodingTests {
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

    /// An error's description.
    struct Failure: Error { let text: String }

    /// What decoding `json` as `T` gives: its value, or its error's description.
    static func outcome<T: Decodable>(_ type: T.Type, _ json: String, foundation: Bool) -> Result<T, Failure> {
        do {
            let value = foundation ? try JSONDecoder().decode(type, from: Data(json.utf8)) : try JSONCoding.decode(type, from: Array(json.utf8))
            return .success(value)
        } catch {
            return .failure(Failure(text: String(describing: error)))
        }
    }

    @Test func theCountersDecodeAsTheDictionaryDid() {
        for json in Self.bodies {
            for foundation in [false, true] {
                let own = Self.outcome(Heartbeat.self, json, foundation: foundation).map {
                    Synthesized(service: $0.service, version: $0.version, pid: $0.pid, uptimeSeconds: $0.uptimeSeconds,
                                intervalMilliseconds: $0.intervalMilliseconds, counters: $0.counters)
                }
                let synthesized = Self.outcome(Synthesized.self, json, foundation: foundation)
                switch (own, synthesized) {
                case (.success(let a), .success(let b)): #expect(a == b, "\(json)")
                case (.failure(let a), .failure(let b)):
                    #expect(a.text == b.text, "\(json)")
                default: Issue.record("\(json): \(own) against \(synthesized)")
                }
            }
        }
    }
}
