import Domain
import JSON

/// The rule for ids (message ids, correlation ids, service names, device ids): text without NUL
/// or other control characters, which SQLite, logs and terminals would cut, merge or interpret.
public enum Identifier {
    /// The first control character (C0, DEL or C1) in `text`, if any. Text that is printable
    /// ASCII (an id, nearly always) is told so 8 bytes at a time.
    public static func controlCharacter(in text: String) -> Unicode.Scalar? {
        let printable = text.utf8.withContiguousStorageIfAvailable { utf8 in
            let start = ByteWords.skipClean(utf8, from: 0) { ByteWords.hasDeleteOrNonASCII($0) || ByteWords.hasControl($0) }
            return utf8[start...].allSatisfy { $0 >= 0x20 && $0 < 0x7f }
        }
        if printable == true { return nil }
        return text.unicodeScalars.first { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }
    }

    /// Throws a `bad-shape` error naming `field` when `text` holds a control character.
    static func check(_ text: String, field: String) throws(MessageError) {
        if let scalar = controlCharacter(in: text) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            throw MessageError(
                .badShape, "field '\(field)' holds a control character (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code)): ids are text without NUL or control characters")
        }
    }
}
