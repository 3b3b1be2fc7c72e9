import Domain
import Testing
@testable import Wire

/// The writer copies what it is given exactly, whatever its length (short texts are copied as
/// overlapping words, long ones by `memmove`), one piece after another.
@Suite struct JSONWriterTests {
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
}
