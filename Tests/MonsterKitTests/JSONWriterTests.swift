import Testing
@testable import MonsterKit

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
}
