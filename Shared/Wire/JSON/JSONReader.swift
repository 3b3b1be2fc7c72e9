import Glibc

/// Why `JSONReader` stopped: the bytes are not the plain JSON it reads directly (an escape in a
/// key or string, an unusual number, a syntax error, a wrong shape…). Its reader is then
/// abandoned and the `Decodable` path decides, with its own error if there is one.
struct NotDirect: Error {}

/// Reads JSON in one pass straight from its bytes, without a tree: the caller asks for what it
/// expects (an object's keys, a string, a number…) and the reader checks the JSON grammar as it
/// goes (RFC 8259, as `JSONDocument` does). It reads only the plain forms — strings without
/// escapes, numbers `FastJSONDecoder` reads the same way — and throws `NotDirect` on anything
/// else, never guessing: what it reads must be what the `Decodable` path reads.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int

    /// A reader at `position` of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int = 0) {
        self.bytes = bytes; self.position = position
    }

    /// Deeper values than this are left to the `Decodable` path (which has its own limit).
    static let maximumDepth = 64

    /// Passes over JSON whitespace.
    @inline(__always) mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The next byte, without consuming it.
    @inline(__always) func peek() throws(NotDirect) -> UInt8 {
        guard position < bytes.count else { throw NotDirect() }
        return bytes[position]
    }

    /// Consumes `byte`, which must be next.
    @inline(__always) mutating func consume(_ byte: UInt8) throws(NotDirect) {
        guard position < bytes.count, bytes[position] == byte else { throw NotDirect() }
        position += 1
    }

    /// Whether the reader has reached the end of the bytes once trailing whitespace is skipped.
    mutating func atEnd() -> Bool {
        skipWhitespace()
        return position == bytes.count
    }

    // MARK: Objects and arrays

    /// Enters an object (`{`); its keys follow with `nextKey(_:)`, `first` set to true.
    mutating func enterObject() throws(NotDirect) {
        skipWhitespace()
        try consume(UInt8(ascii: "{"))
    }

    /// The next key's bytes (inside the quotes) with the reader at its value, or nil at the
    /// object's end (consumed). `first` is true before the first key and set false here.
    mutating func nextKey(_ first: inout Bool) throws(NotDirect) -> Range<Int>? {
        skipWhitespace()
        let byte = try peek()
        if first {
            first = false
            if byte == UInt8(ascii: "}") { position += 1; return nil }
        } else {
            position += 1
            if byte == UInt8(ascii: "}") { return nil }
            guard byte == UInt8(ascii: ",") else { throw NotDirect() }
            skipWhitespace()
        }
        let key = try plainString()
        skipWhitespace()
        try consume(UInt8(ascii: ":"))
        skipWhitespace()
        return key
    }

    /// Whether the key at `range` is `name` (keys are compared as bytes: escaped keys never get here).
    @inline(__always) func key(_ range: Range<Int>, is name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount else { return false }
        // Byte by byte in place: keys are short, and a call to `memcmp` costs more than they do.
        let key = bytes.baseAddress! + range.lowerBound, expected = name.utf8Start
        for index in 0..<range.count where key[index] != expected[index] { return false }
        return true
    }

    /// Whether the bytes of `range` and `other` are the same.
    func same(_ range: Range<Int>, _ other: Range<Int>) -> Bool {
        range.count == other.count && memcmp(bytes.baseAddress! + range.lowerBound, bytes.baseAddress! + other.lowerBound, range.count) == 0
    }

    /// Enters an array (`[`); its elements follow with `nextElement(_:)`, `first` set to true.
    mutating func enterArray() throws(NotDirect) {
        skipWhitespace()
        try consume(UInt8(ascii: "["))
    }

    /// Whether another element follows (the reader is then at it); false at the array's end (consumed).
    mutating func nextElement(_ first: inout Bool) throws(NotDirect) -> Bool {
        skipWhitespace()
        let byte = try peek()
        if first {
            first = false
            if byte == UInt8(ascii: "]") { position += 1; return false }
            return true
        }
        position += 1
        if byte == UInt8(ascii: "]") { return false }
        guard byte == UInt8(ascii: ",") else { throw NotDirect() }
        skipWhitespace()
        return true
    }

    // MARK: Scalars

    /// Consumes `null` if it is next (`decodeIfPresent` reads it as absent).
    mutating func null() -> Bool {
        guard position + 4 <= bytes.count, bytes[position] == UInt8(ascii: "n"), bytes[position + 1] == UInt8(ascii: "u"),
              bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "l") else { return false }
        position += 4
        return true
    }

    /// The bytes of a string without escapes (inside the quotes); `NotDirect` for an escape or a
    /// control character (which JSON does not allow unescaped).
    mutating func plainString() throws(NotDirect) -> Range<Int> {
        try consume(UInt8(ascii: "\""))
        let start = position
        // 8 bytes at a time: the first special byte of a word is the end (a quote) or a refusal.
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while position + 8 <= bytes.count {
                let specials = ByteWords.specials(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)))
                if specials != 0 {
                    position += specials.trailingZeroBitCount / 8
                    guard bytes[position] == UInt8(ascii: "\"") else { throw NotDirect() }
                    position += 1
                    return start..<(position - 1)
                }
                position += 8
            }
        }
        // The last few bytes of the text, one by one.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return start..<(position - 1)
            }
            if byte < 0x20 || byte == UInt8(ascii: "\\") { throw NotDirect() }
            position += 1
        }
        throw NotDirect()
    }

    /// A string without escapes.
    mutating func string() throws(NotDirect) -> String {
        text(try plainString())
    }

    /// The text of `range` (valid UTF-8: the codec checked the whole message).
    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Whether `range` holds none of `Identifier`'s control characters: C0 (refused by
    /// `plainString` already), DEL and C1 (U+0080–U+009F, `C2 80`–`C2 9F` in UTF-8).
    func isIdentifier(_ range: Range<Int>) -> Bool {
        var index = range.lowerBound + ByteWords.skipClean(UnsafeBufferPointer(rebasing: bytes[range]), from: 0, ByteWords.hasDeleteOrNonASCII)
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == 0x7F { return false }
            if byte == 0xC2, index + 1 < range.upperBound, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9F { return false }
            index += 1
        }
        return true
    }

    /// `true` or `false`.
    mutating func bool() throws(NotDirect) -> Bool {
        if position + 4 <= bytes.count, bytes[position] == UInt8(ascii: "t"), bytes[position + 1] == UInt8(ascii: "r"),
           bytes[position + 2] == UInt8(ascii: "u"), bytes[position + 3] == UInt8(ascii: "e") {
            position += 4
            return true
        }
        if position + 5 <= bytes.count, bytes[position] == UInt8(ascii: "f"), bytes[position + 1] == UInt8(ascii: "a"),
           bytes[position + 2] == UInt8(ascii: "l"), bytes[position + 3] == UInt8(ascii: "s"), bytes[position + 4] == UInt8(ascii: "e") {
            position += 5
            return false
        }
        throw NotDirect()
    }

    /// The bytes of a number, checked against JSON's grammar.
    mutating func number() throws(NotDirect) -> Range<Int> {
        let start = position
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { throw NotDirect() }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            guard digits() > 0 else { throw NotDirect() }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw NotDirect() }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw NotDirect() }
        }
        return start..<position
    }

    private mutating func digits() -> Int {
        let from = position
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") { position += 1 }
        return position - from
    }

    /// A number as a double, exactly as `JSONDocument.double(at:)` reads it.
    mutating func double() throws(NotDirect) -> Double {
        let range = try number()
        guard let value = JSONDocument.double(in: bytes, from: range.lowerBound, to: range.upperBound) else { throw NotDirect() }
        return value
    }

    /// A number written as plain decimal digits (no sign, fraction or exponent) that fits a `UInt64`.
    mutating func unsigned() throws(NotDirect) -> UInt64 {
        let range = try number()
        var value: UInt64 = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw NotDirect() }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (plus, overflow2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { throw NotDirect() }
            value = plus
        }
        return value
    }

    /// A number written as plain decimal digits, perhaps negative, that fits an `Int`.
    mutating func integer() throws(NotDirect) -> Int {
        skipWhitespace()
        let negative = position < bytes.count && bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        let magnitude = try unsigned()
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { throw NotDirect() }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { throw NotDirect() }
        return Int(magnitude)
    }

    /// A string whose text is one of `T`'s raw values.
    mutating func enumeration<T: RawRepresentable>(_ type: T.Type) throws(NotDirect) -> T where T.RawValue == String {
        guard let value = T(rawValue: try string()) else { throw NotDirect() }
        return value
    }

    /// An array of strings without escapes.
    mutating func strings() throws(NotDirect) -> [String] {
        var result: [String] = []
        try enterArray()
        var first = true
        while try nextElement(&first) { result.append(try string()) }
        return result
    }

    // MARK: Skipping

    /// Checks and passes over any JSON value (escapes included: only their grammar is checked,
    /// as `JSONDocument` checks it), for members no one asked for and repeated keys.
    mutating func skipValue(depth: Int = 0) throws(NotDirect) {
        guard depth < Self.maximumDepth else { throw NotDirect() }
        skipWhitespace()
        switch try peek() {
        case UInt8(ascii: "{"):
            position += 1
            var first = true
            while true {
                skipWhitespace()
                let byte = try peek()
                if first {
                    first = false
                    if byte == UInt8(ascii: "}") { position += 1; return }
                } else {
                    position += 1
                    if byte == UInt8(ascii: "}") { return }
                    guard byte == UInt8(ascii: ",") else { throw NotDirect() }
                    skipWhitespace()
                }
                try skipString()
                skipWhitespace()
                try consume(UInt8(ascii: ":"))
                try skipValue(depth: depth + 1)
            }
        case UInt8(ascii: "["):
            position += 1
            var first = true
            while try nextElement(&first) { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""): try skipString()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try bool()
        case UInt8(ascii: "n"): guard null() else { throw NotDirect() }
        default: _ = try number()
        }
    }

    /// Passes over a string, escapes included (grammar only, as `JSONDocument`'s parser checks it).
    private mutating func skipString() throws(NotDirect) {
        try consume(UInt8(ascii: "\""))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { position += 1; return }
            if byte < 0x20 { throw NotDirect() }
            if byte == UInt8(ascii: "\\") {
                position += 1
                guard position < bytes.count else { throw NotDirect() }
                guard case .valid(let extra) = JSONDocument.escape(in: bytes, at: position) else { throw NotDirect() }
                position += extra
            }
            position += 1
        }
        throw NotDirect()
    }
}
