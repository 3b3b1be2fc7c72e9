import Domain
import Foundation
import Testing
@testable import Wire

/// The fast JSON coders agree with Foundation's: whatever one writes, the other reads back the
/// same; what the fast decoder accepts, Foundation accepts with the same value.
@Suite struct FastJSONTests {
    @Test(arguments: Samples.bodies)
    func foundationReadsWhatTheFastEncoderWrites(_ body: Body) throws {
        let envelope = Samples.envelope(body)
        let fast = try FastJSONEncoder.encode(envelope)
        #expect(try JSONDecoder().decode(Envelope.self, from: Data(fast)) == envelope)
    }

    @Test(arguments: Samples.bodies)
    func theFastDecoderReadsWhatFoundationWrites(_ body: Body) throws {
        let envelope = Samples.envelope(body)
        let data = try JSONEncoder().encode(envelope)
        #expect(try FastJSONDecoder.decode(Envelope.self, from: Array(data)) == envelope)
    }

    @Test(arguments: Samples.bodies)
    func bothWriteTheSameJSONValue(_ body: Body) throws {
        let envelope = Samples.envelope(body)
        let fast = try JSONSerialization.jsonObject(with: Data(try FastJSONEncoder.encode(envelope))) as? NSDictionary
        let foundation = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(envelope)) as? NSDictionary
        #expect(fast == foundation)
    }

    struct Scalars: Codable, Equatable {
        var text: String
        var double: Double
        var integer: Int
        var small: Int8
        var unsigned: UInt64
        var flag: Bool
        var optional: String?
        var list: [Double]
        var nested: [String: [Int]]
    }

    @Test func scalarsAndEscapesRoundTrip() throws {
        let value = Scalars(
            text: "quote \" backslash \\ slash / tab \t newline \n nul \u{0} bell \u{7} é 🐱", double: -0.1,
            integer: Int.min, small: -128, unsigned: UInt64.max, flag: false, optional: nil,
            list: [0, -0.0, 1e-7, 123456.789, 1e300, Double.leastNonzeroMagnitude, 52.5, 0.1 + 0.2], nested: ["a": [1, 2], "": []])
        let bytes = try FastJSONEncoder.encode(value)
        #expect(try FastJSONDecoder.decode(Scalars.self, from: bytes) == value)
        #expect(try JSONDecoder().decode(Scalars.self, from: Data(bytes)) == value)
        #expect(try FastJSONDecoder.decode(Scalars.self, from: Array(try JSONEncoder().encode(value))) == value)
    }

    @Test func numbersAreReadExactly() throws {
        for text in ["0", "-0", "1", "52.5", "0.05", "123456789012345", "1234567890123456789", "1e2", "1E-2", "-3.25e+10", "0.1", "9007199254740993"] {
            let fast = try FastJSONDecoder.decode(Double.self, from: Array(text.utf8))
            let foundation = try JSONDecoder().decode(Double.self, from: Data(text.utf8))
            #expect(fast == foundation, "\(text)")
        }
        #expect(try FastJSONDecoder.decode(Int.self, from: Array("1.0".utf8)) == 1)
        #expect(try FastJSONDecoder.decode(UInt64.self, from: Array("18446744073709551615".utf8)) == UInt64.max)
    }

    @Test func unicodeEscapesIncludingSurrogatePairs() throws {
        #expect(try FastJSONDecoder.decode(String.self, from: Array(#""\u00e9\ud83d\udc31\n\/""#.utf8)) == "é🐱\n/")
        #expect(throws: DecodingError.self) { try FastJSONDecoder.decode(String.self, from: Array(#""\ud800""#.utf8)) }
    }

    @Test func malformedJSONIsRefusedAsFoundationRefusesIt() {
        for text in ["", " ", "{", "}", "[1 2]", "{\"a\" 1}", "{\"a\":}", "tru", "nul", "01", "1.", ".5", "-", "1e", "\"abc", "\"\\x\"",
                     "\"\u{1}\"", "{\"a\":1}x", "[1]]", "{'a':1}", "+1", "NaN", "Infinity"] {
            #expect(throws: DecodingError.self, "\(text)") { try FastJSONDecoder.decode([String: Int].self, from: Array(text.utf8)) }
            #expect(throws: (any Error).self, "\(text)") { try JSONDecoder().decode([String: Int].self, from: Data(text.utf8)) }
        }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: DecodingError.self) { try FastJSONDecoder.decode([Int].self, from: Array(deep.utf8)) }
    }

    @Test func errorsNameTheSameFieldsAsFoundation() throws {
        let text = #"{"text":"a","double":"x","integer":1,"small":1,"unsigned":1,"flag":true,"list":[],"nested":{}}"#
        var fastPath: [String] = [], foundationPath: [String] = []
        do { _ = try FastJSONDecoder.decode(Scalars.self, from: Array(text.utf8)) } catch let DecodingError.typeMismatch(_, context) {
            fastPath = context.codingPath.map(\.stringValue)
        }
        do { _ = try JSONDecoder().decode(Scalars.self, from: Data(text.utf8)) } catch let DecodingError.typeMismatch(_, context) {
            foundationPath = context.codingPath.map(\.stringValue)
        }
        #expect(fastPath == ["double"])
        #expect(fastPath == foundationPath)
        let missing = #"{"text":"a"}"#
        #expect(throws: DecodingError.self) { try FastJSONDecoder.decode(Scalars.self, from: Array(missing.utf8)) }
    }

    @Test func aRepeatedKeyTakesTheFirstValueAsFoundationDoes() throws {
        struct One: Codable, Equatable { let a: Int }
        let text = #"{"a":1,"a":2}"#
        #expect(try FastJSONDecoder.decode(One.self, from: Array(text.utf8)) == JSONDecoder().decode(One.self, from: Data(text.utf8)))
    }
}
