import JSON
import Testing
import TestTiers

/// The writer copies what it is given exactly, whatever its length (short texts are copied as
/// overlapping words, long ones by `memmove`), one piece after another.
@Suite(.tags(.unit)) struct JSONWriterTests {
    @Test func copiesTextsOfEveryLengthExactly() {
        let writer = JSONWriter(capacity: 16)
        var expected: [UInt8] = []
        for length in 0...80 {
            let text = String((0..<length).map { Character(Unicode.Scalar(UInt8(0x41 + ($0 * 7 + length) % 26))) })
            writer.writeStringContent(text)
            writer.write(UInt8(ascii: ","))
            expected += Array(text.utf8) + [UInt8(ascii: ",")]
            #expect(writer.withBytes { Array($0) } == expected, "length \(length)")
        }
    }

    /// A character to escape anywhere in a text of any length (in a word checked early, in the
    /// last word, in a short text) gives the escaped text, with nothing of the plain attempt left.
    @Test func escapesACharacterWhereverItIs() {
        let writer = JSONWriter(capacity: 16)
        for length in 1...40 {
            for position in 0..<length {
                for (special, escaped) in [("\"", "\\\""), ("\\", "\\\\"), ("\n", "\\n"), ("\u{01}", "\\u0001")] {
                    let plain = (0..<length).map { Character(Unicode.Scalar(UInt8(0x61 + $0 % 26))) }
                    var text = plain, expected = plain.map(String.init)
                    text[position] = Character(special)
                    expected[position] = escaped
                    writer.reset()
                    writer.writeStringContent(String(text))
                    #expect(writer.withBytes { Array($0) } == Array(expected.joined().utf8), "length \(length), at \(position)")
                }
            }
        }
    }

    @Test func numbersAreWrittenInTheirShortestFormAndNonFiniteOnesAreRefused() throws {
        let writer = JSONWriter()
        for (value, text) in [(0.0, "0"), (-0.0, "-0"), (52.5, "52.5"), (1e-7, "1e-07"), (320, "320"), (-3, "-3"), (0.1 + 0.2, "0.30000000000000004"), (1e16, "1e+16")] {
            writer.reset()
            try writer.writeDouble(value)
            #expect(String(decoding: writer.bytes, as: UTF8.self) == text, "\(value)")
        }
        for value in [Double.nan, .infinity, -.infinity] {
            let error = try #require(throws: JSONError.self) { try writer.writeDouble(value) }
            #expect(error.kind == .nonFinite)
        }
        writer.reset()
        writer.writeInteger(Int64.min)
        writer.write(UInt8(ascii: " "))
        writer.writeInteger(UInt64.max)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "-9223372036854775808 18446744073709551615")
    }

    @Test func keysAreWrittenWithTheirCommaAfterTheFirst() {
        let writer = JSONWriter()
        writer.write(UInt8(ascii: "{"))
        writer.writeKey("a", first: true)
        writer.writeInteger(1)
        writer.writeKey("correlationId", first: false)
        writer.writeBool(true)
        writer.write(UInt8(ascii: "}"))
        #expect(String(decoding: writer.bytes, as: UTF8.self) == #"{"a":1,"correlationId":true}"#)
    }

    @Test func aQuotedLiteralForAPageEscapesWhatAScriptWouldMisread() {
        #expect(JSONWriter.quoted("a\"b\\c\n") == #""a\"b\\c\n""#)
        #expect(JSONWriter.quoted("</script>\u{2028}", forPages: true) == #""\u003c/script>\u2028""#)
        #expect(JSONWriter.quoted("</script>") == #""</script>""#)
    }
}
