import Foundation
import JSON
import Testing
import TestTiers

/// The reader takes exactly JSON (RFC 8259): what it accepts Foundation's parser accepts, with
/// the same values; what Foundation refuses it refuses, with a reason and never a crash.
@Suite(.tags(.unit)) struct JSONReaderTests {
    /// `text` read as one value.
    func parse(_ text: String) throws(JSONError) -> JSONValue { try JSONValue.parse(text) }

    /// Foundation's reading of `text` (fragments allowed), the oracle.
    func foundation(_ text: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    @Test func malformedTextIsRefusedAsFoundationRefusesIt() {
        for text in ["", " ", "{", "}", "[1 2]", "{\"a\" 1}", "{\"a\":}", "tru", "nul", "01", "1.", ".5", "-", "1e", "\"abc", "\"\\x\"",
                     "\"\u{1}\"", "{\"a\":1}x", "[1]]", "{'a':1}", "+1", "NaN", "Infinity", "[1,]", "{\"a\":1,}", "[,1]", "{,}",
                     "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "-01", "1e+", "[", "{\"a\"", "truex", "[true false]"] {
            let error = #expect(throws: JSONError.self, "\(text)") { try parse(text) }
            #expect(error?.kind == .syntax, "\(text): \(String(describing: error))")
            // Foundation's parser on Linux takes a trailing comma; RFC 8259 does not.
            if !text.hasSuffix(",]") && !text.hasSuffix(",}") { #expect(foundation(text) == nil, "Foundation reads \(text)") }
        }
    }

    @Test func validTextIsReadAsFoundationReadsIt() throws {
        for text in ["0", "-0", "1", "[]", "{}", " [ 1 , 2 ] ", "{\"a\":[{\"b\":null}],\"c\":true,\"d\":false}", "\"\"", "\"\\u00e9\\ud83d\\udc31\\n\\/\"",
                     "[1e2, 1E-2, -3.25e+10, 0.1]", "\n\t\r {\"\\u0061\":1}"] {
            let ours = try parse(text)
            let theirs = try #require(foundation(text), "\(text)")
            #expect(Self.same(ours, theirs), "\(text): \(ours) against \(theirs)")
        }
    }

    /// Whether our tree and Foundation's hold the same values.
    static func same(_ value: JSONValue, _ other: Any) -> Bool {
        switch value {
        case .null: return other is NSNull
        case .bool(let flag): return (other as? Bool) == flag
        case .number(let literal): return (other as? NSNumber).map { $0.doubleValue == Double(literal) } ?? false
        case .string(let text): return other as? String == text
        case .array(let elements):
            guard let others = other as? [Any], others.count == elements.count else { return false }
            return zip(elements, others).allSatisfy { same($0, $1) }
        case .object(let members):
            guard let others = other as? [String: Any] else { return false }
            return members.allSatisfy { member in others[member.key].map { same(member.value, $0) } ?? false }
        }
    }

    /// A high surrogate pairs with a low one, \uDC00 to \uDFFF: both ends of both ranges.
    @Test func surrogatePairsAreTakenAtTheEndsOfTheirRanges() throws {
        #expect(try parse("\"\\ud800\\udc00\"") == .string("\u{10000}"))
        #expect(try parse("\"\\udbff\\udfff\"") == .string("\u{10FFFF}"))
        for text in ["\"\\ud800\\udbff\"", "\"\\ud800\\ue000\"", "\"\\udbff\\ud800\"", "\"\\ud7ff\\udc00\""] {
            #expect(throws: JSONError.self, "\(text)") { try parse(text) }
        }
    }

    @Test func numbersAreTheNearestDoubles() throws {
        for text in ["0", "-0", "1", "52.5", "0.05", "123456789012345", "1234567890123456789", "1e2", "1E-2", "-3.25e+10", "0.1",
                     "9007199254740993", "2.2250738585072014e-308", "4.9e-324", "1.7976931348623157e308", "0.000000000000000000001"] {
            #expect(try Self.read(text) { try $0.readDouble() } == Double(text), "\(text)")
        }
        #expect(throws: JSONError.self) { try Self.read("1e999") { try $0.readDouble() } }
    }

    /// A number too large for a double is refused when a value is read, as Foundation's parser
    /// refuses it; passed over unread (a member no one asked for), it is only checked against
    /// the grammar, like any value passed over.
    @Test func aNumberTooLargeForADoubleIsRefusedWhenRead() throws {
        let tooMany = "1" + String(repeating: "0", count: 309)
        for text in ["{\"skipped\":2e308}", "[1,{\"x\":-1e999}]", "{\"a\":\(tooMany)}"] {
            let error = #expect(throws: JSONError.self, "\(text.prefix(40))") { try parse(text) }
            #expect(error?.kind == .value, "\(text.prefix(40))")
            #expect(foundation(text) == nil, "Foundation reads \(text.prefix(40))")
            #expect(throws: Never.self) { try Self.read(text) { try $0.skipValue() } }
        }
    }

    /// A nested value kept whole is delimited by its brackets and strings: it ends where
    /// `skipValue` ends for any valid text (brackets and escaped quotes inside strings included);
    /// a bracket closed by the other kind, a string or text that never ends, a control character
    /// in a string and nesting past the limit are refused.
    @Test func aValueIsDelimitedWhereItEnds() throws {
        for text in ["{\"a\":[1,{\"b\":\"}]\\\"{\"}],\"c\":-1.5e3}", "[[],{},[[[\"[\"]]]]", "{ \"k\" : [ true , null ] }", "\"x\"", "12"] {
            let ends = try [true, false].map { delimit in
                try Array((text + " ,").utf8).withUnsafeBufferPointer { bytes in
                    var reader = JSONReader(bytes)
                    if delimit { try reader.delimitValue() } else { try reader.skipValue() }
                    return reader.position
                }
            }
            #expect(ends[0] == ends[1] && ends[0] == text.utf8.count, "\(text)")
        }
        let deep = String(repeating: "[", count: JSONReader.maximumDepth + 1) + String(repeating: "]", count: JSONReader.maximumDepth + 1)
        for text in ["{\"a\":[1}]", "[{]}", "{\"a\":1", "[\"]", "[\"\u{1}\"]", deep] {
            #expect(throws: JSONError.self, "\(text.prefix(20))") { try Self.read(text) { try $0.delimitValue() } }
        }
        #expect(throws: Never.self) { try Self.read(String(deep.dropFirst().dropLast())) { try $0.delimitValue() } }
    }

    static func read<T>(_ text: String, _ body: (inout JSONReader) throws -> T) throws -> T {
        try Array(text.utf8).withUnsafeBufferPointer { bytes in
            var reader = JSONReader(bytes)
            let value = try body(&reader)
            try reader.finish()
            return value
        }
    }

    @Test func integersAreExactAndWithinTheirTypesRange() throws {
        #expect(try Self.read("1.0") { try $0.readInteger(Int.self) } == 1)
        #expect(try Self.read("1e2") { try $0.readInteger(Int.self) } == 100)
        #expect(try Self.read("-0") { try $0.readInteger(UInt64.self) } == 0)
        #expect(try Self.read("18446744073709551615") { try $0.readInteger(UInt64.self) } == UInt64.max)
        #expect(try Self.read("-9223372036854775808") { try $0.readInteger(Int64.self) } == Int64.min)
        #expect(try Self.read("2147483647") { try $0.readInteger(Int32.self) } == Int32.max)
        for (text, type) in [("18446744073709551616", "UInt64"), ("-1", "UInt64"), ("2147483648", "Int32"), ("1.5", "Int"), ("9223372036854775808", "Int")] {
            let error = #expect(throws: JSONError.self, "\(text)") {
                switch type {
                case "UInt64": _ = try Self.read(text) { try $0.readInteger(UInt64.self) }
                case "Int32": _ = try Self.read(text) { try $0.readInteger(Int32.self) }
                default: _ = try Self.read(text) { try $0.readInteger(Int.self) }
                }
            }
            #expect(error?.kind == .value, "\(text)")
        }
    }

    @Test func aValueOfAnotherTypeIsATypeErrorNamingBoth() throws {
        let error = try #require(throws: JSONError.self) { try Self.read("12") { try $0.readString() } }
        #expect(error.kind == .type)
        #expect(error.reason == "should be a string, not a number")
        let object = try #require(throws: JSONError.self) { try Self.read("[]") { try $0.beginObject() } }
        #expect(object.reason == "should be an object, not an array")
    }

    /// Depth counts what the reader is inside, not what it has left: more objects and arrays
    /// one after the other than `maximumDepth` are read, member by member and element by element.
    @Test func siblingsBeyondTheDepthLimitAreRead() throws {
        let count = JSONReader.maximumDepth + 6
        let text = "[" + Array(repeating: "{\"a\":[1]}", count: count).joined(separator: ",") + "]"
        let read = try Self.read(text) { reader in
            var objects = 0, inArray = true
            try reader.beginArray()
            while try reader.nextElement(&inArray) {
                var first = true
                try reader.beginObject()
                while try reader.nextKey(&first) != nil {
                    var element = true
                    try reader.beginArray()
                    while try reader.nextElement(&element) { _ = try reader.readInteger(Int.self) }
                }
                objects += 1
            }
            return objects
        }
        #expect(read == count)
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = #expect(throws: JSONError.self) { try parse(deep) }
        #expect(error?.reason.contains("nest deeper") == true)
        let allowed = String(repeating: "[", count: JSONReader.maximumDepth) + String(repeating: "]", count: JSONReader.maximumDepth)
        #expect(throws: Never.self) { try parse(allowed) }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: JSONError.self) { try JSONValue.parse([0x22, 0xff, 0xfe, 0x22]) }
    }

    @Test func aTreeIsWrittenAsCompactJSONAndReadBackTheSame() throws {
        let text = #"{"b":[1,2.5,"x\n",null,true],"a":{"c":-0}}"#
        let tree = try parse(text)
        #expect(tree.jsonText == text)
        #expect(try parse(tree.jsonText) == tree)
        #expect(tree.value(at: "b.2") == .string("x\n"))
        #expect(tree.value(at: "a.c") == .number("-0"))
        #expect(tree.value(at: "b.9") == nil)
    }
}
