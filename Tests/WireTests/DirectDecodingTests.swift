import Domain
import Foundation
import Testing
@testable import Wire

/// `DirectDecoding` (the actions and their answers read straight from the bytes) agrees with the
/// `Decodable` path: same envelope, or it gives up (nil) and the codec's answer — value or error,
/// code and reason — is the `Decodable` path's.
@Suite struct DirectDecodingTests {
    let codec = EnvelopeCodec()

    /// The types read directly.
    static let directTypes: Set<MessageType> = [
        .tap, .rotate, .resize, .select, .interaction, .describe, .inputTap, .ack, .presented, .dismissed,
    ]

    /// What decoding gives, comparable: the envelope, or the error's code and reason.
    enum Outcome: Equatable {
        case value(Envelope)
        case error(MessageError.Code, String)
    }

    func viaCodec(_ json: [UInt8]) -> Outcome {
        do { return .value(try codec.decode(json)) } catch { return .error(error.code, error.reason) }
    }

    func viaDecodable(_ json: [UInt8]) -> Outcome {
        guard String(validating: json, as: UTF8.self) != nil else { return viaCodec(json) }
        do { return .value(try codec.decodeThroughDecodable(json)) } catch { return .error(error.code, error.reason) }
    }

    /// Both paths agree on `json`; returns whether the direct path read it.
    @discardableResult
    func expectAgreement(_ json: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let reference = viaDecodable(json)
        #expect(viaCodec(json) == reference, "\(String(decoding: json, as: UTF8.self))", sourceLocation: sourceLocation)
        guard String(validating: json, as: UTF8.self) != nil, let direct = DirectDecoding.decode(json) else { return false }
        #expect(reference == .value(direct), "direct accepted \(String(decoding: json, as: UTF8.self))", sourceLocation: sourceLocation)
        return true
    }

    static let variants: [Envelope] = Samples.bodies.flatMap { body -> [Envelope] in
        var bare = Samples.envelope(body, device: nil)
        bare.traceparent = nil
        bare.parentSpan = nil
        var addressed = Samples.envelope(body)
        addressed.replyTo = "0123456789abcdef"
        return [Samples.envelope(body), bare, addressed]
    }

    @Test(arguments: variants)
    func everySampleDecodesAlikeThroughBothPaths(_ envelope: Envelope) throws {
        let fast = try codec.encode(envelope)
        let foundation = Array(try JSONEncoder().encode(envelope))
        for json in [fast, foundation] {
            let direct = expectAgreement(json)
            #expect(direct == Self.directTypes.contains(envelope.type), "\(envelope.type): read directly: \(direct)")
            #expect(viaCodec(json) == .value(envelope))
        }
    }

    /// Every member removed, set to null, or to a value of another kind, at every depth: the
    /// codec's answer (value or error) is the `Decodable` path's.
    @Test(arguments: Samples.bodies.filter { directTypes.contains($0.type) })
    func everyMemberChangedDecodesAlike(_ body: Body) throws {
        var envelope = Samples.envelope(body)
        envelope.replyTo = "client-1"
        let object = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(envelope))
        let replacements: [Any?] = [nil, NSNull(), "x", "", 1.5, -1, 0, true, [Any](), [String: Any](), ["a"], "a/b",
                                    String(repeating: "z", count: 65), "\u{7f}", "\u{85}", "Ä"]
        var count = 0
        for path in Self.paths(object) {
            for replacement in replacements {
                let changed = Self.replacing(object, at: path[...], with: replacement)
                let json = Array(try JSONSerialization.data(withJSONObject: changed))
                expectAgreement(json)
                count += 1
            }
        }
        #expect(count > 50)
    }

    /// Byte-level damage (truncation, a byte replaced) never makes the paths disagree.
    @Test(arguments: Samples.bodies.filter { directTypes.contains($0.type) })
    func damagedBytesDecodeAlike(_ body: Body) throws {
        let json = try codec.encode(Samples.envelope(body))
        for length in stride(from: 0, to: json.count, by: 7) { expectAgreement(Array(json[..<length])) }
        var generator = SplitMix64(seed: UInt64(json.count))
        let bytes: [UInt8] = Array(#"{}[]",:0-1.e"\n tfu/"#.utf8) + [0x7f, 0xc2, 0x85, 0x00]
        for _ in 0..<200 {
            var damaged = json
            damaged[Int.random(in: 0..<json.count, using: &generator)] = bytes.randomElement(using: &generator)!
            expectAgreement(damaged)
        }
    }

    @Test func theFirstOfRepeatedKeysWinsAndUnknownKeysAreIgnored() throws {
        let json = #"{"v":1,"type":"device.tap","type":"ack","id":"a","id":"b","correlationId":"a","service":"gateway","#
            + #""device":"d1","device":null,"seq":1,"time":"2026-11-30T03:14:39.123Z","extra":{"k":[1,{"\u0041":null}]},"#
            + #""body":{"element":"add","element":5,"unknown":true},"body":"not a body"}"#
        #expect(expectAgreement(Array(json.utf8)))
        let envelope = try codec.decode(Array(json.utf8))
        #expect(envelope.id == "a" && envelope.device == "d1" && envelope.body == .tap(Tap(element: "add")))
    }

    @Test func aBodyBeforeTheTypeIsReadDirectly() throws {
        let json = #"{"body":{"point":{"x":1,"y":2.5}},"v":1,"id":"a","correlationId":"a","service":"gateway","#
            + #""seq":1,"time":"2026-11-30T03:14:39.123Z","type":"device.tap"}"#
        #expect(expectAgreement(Array(json.utf8)))
        #expect(try codec.decode(Array(json.utf8)).body == .tap(Tap(point: Point(x: 1, y: 2.5))))
    }

    @Test func escapesAndUnusualNumbersAreLeftToTheDecodablePath() throws {
        for json in [
            #"{"v":1,"type":"device.tap","id":"\u0061","correlationId":"a","service":"g","seq":1,"time":"2026-11-30T03:14:39.123Z","body":{}}"#,
            #"{"v":1.0,"type":"device.tap","id":"a","correlationId":"a","service":"g","seq":1,"time":"2026-11-30T03:14:39.123Z","body":{}}"#,
            #"{"v":1,"type":"device.tap","id":"a","correlationId":"a","service":"g","seq":1e0,"time":"2026-11-30T03:14:39.123Z","body":{}}"#,
            #"{"v":1,"\u0074ype":"device.tap","id":"a","correlationId":"a","service":"g","seq":1,"time":"2026-11-30T03:14:39.123Z","body":{}}"#,
        ] {
            #expect(!expectAgreement(Array(json.utf8)))
            #expect(throws: Never.self) { try codec.decode(Array(json.utf8)) }
        }
    }

    @Test func errorsAreTheDecodablePathsErrors() {
        for json in [
            #"{"v":2,"type":"device.tap","id":"a","correlationId":"a","service":"g","seq":1,"time":"2026-11-30T03:14:39.123Z","body":{}}"#,
            #"{"v":1,"type":"device.tap","id":"","correlationId":"a","service":"g","seq":1,"time":"2026-11-30T03:14:39.123Z","body":{}}"#,
            #"{"v":1,"type":"device.tap","id":"a","correlationId":"a","service":"g","seq":1,"time":"yesterday","body":{}}"#,
            #"{"v":1,"type":"device.tap","id":"a","correlationId":"a","service":"g","seq":1,"time":"2026-11-30T03:14:39.123Z","replyTo":"a/b","body":{}}"#,
            #"{"v":1,"type":"device.tap","id":"a","correlationId":"a","service":"g","seq":1,"time":"2026-11-30T03:14:39.123Z","body":{"point":{"x":1}}}"#,
            #"{"v":1,"type":"device.tap","id":"a","correlationId":"a","service":"g","seq":1,"time":"2026-11-30T03:14:39.123Z"}"#,
            #"{"v":1,"type":"device.tap","id":"a","correlationId":"a","service":"g","seq":1,"time":"2026-11-30T03:14:39.123Z","body":{}} x"#,
        ] {
            #expect(!expectAgreement(Array(json.utf8)))
            #expect(throws: MessageError.self) { try codec.decode(Array(json.utf8)) }
        }
    }

    // MARK: JSON values as Foundation's objects

    /// Every path to a value in `object` (keys of dictionaries, indices of arrays).
    static func paths(_ object: Any, prefix: [AnyHashable] = []) -> [[AnyHashable]] {
        var result: [[AnyHashable]] = []
        if let dictionary = object as? [String: Any] {
            for (key, value) in dictionary {
                result.append(prefix + [key])
                result += paths(value, prefix: prefix + [key])
            }
        } else if let array = object as? [Any] {
            for (index, value) in array.enumerated() {
                result.append(prefix + [index])
                result += paths(value, prefix: prefix + [index])
            }
        }
        return result
    }

    /// `object` with the value at `path` replaced (nil: removed).
    static func replacing(_ object: Any, at path: ArraySlice<AnyHashable>, with value: Any?) -> Any {
        guard let head = path.first else { return value ?? NSNull() }
        if var dictionary = object as? [String: Any], let key = head as? String {
            if path.count == 1 && value == nil {
                dictionary[key] = nil
            } else {
                dictionary[key] = replacing(dictionary[key]!, at: path.dropFirst(), with: value)
            }
            return dictionary
        }
        if var array = object as? [Any], let index = head as? Int {
            if path.count == 1 && value == nil {
                array.remove(at: index)
            } else {
                array[index] = replacing(array[index], at: path.dropFirst(), with: value)
            }
            return array
        }
        return object
    }
}

/// A small seeded generator, so that the damaged bytes are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
