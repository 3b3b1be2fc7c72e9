import Glibc

/// Reads JSON text (RFC 8259) straight from its bytes, in one pass and without a tree: the caller
/// asks for the value it expects next (a string, a number, an object's keys…) and the reader
/// checks the grammar as it goes. This is the project's one JSON scanner: every message, tree and
/// document is read through it (`JSONObjectReader` finds an object's members with it,
/// `JSONValue` builds trees with it).
///
/// The bytes must be valid UTF-8 (`isUTF8`): strings are made from them as they are.
public struct JSONReader {
    /// The text being read.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next value (or whitespace before it) starts.
    public var position: Int
    /// How many objects and arrays the reader is inside (`maximumDepth` at most).
    public var depth = 0

    /// Objects and arrays nest at most this deep: deeper text is refused before it can exhaust the stack.
    public static let maximumDepth = 64

    /// A reader at `position` of `bytes`.
    public init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int = 0) {
        self.bytes = bytes; self.position = position
    }

    /// The kinds of JSON value.
    public enum Kind: String, Sendable {
        case object, array, string, number, bool, null
    }

    // MARK: Whitespace, bytes, the end

    /// Passes over JSON whitespace.
    @inlinable @inline(__always) public mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The next byte after whitespace, not consumed; a syntax error at the end of the text.
    @inlinable @inline(__always) mutating func next() throws(JSONError) -> UInt8 {
        // Most tokens follow the one before without a space.
        if position < bytes.count, bytes[position] > 0x20 { return bytes[position] }
        skipWhitespace()
        guard position < bytes.count else { throw JSONError(.syntax, "the JSON text ends too early") }
        return bytes[position]
    }

    /// Consumes `byte`, which must come next after whitespace.
    @inlinable @inline(__always) mutating func expect(_ byte: UInt8) throws(JSONError) {
        guard try next() == byte else { throw unexpected("'\(Character(Unicode.Scalar(byte)))'") }
        position += 1
    }

    /// The kind of the value that comes next (after whitespace).
    @inlinable public mutating func kind() throws(JSONError) -> Kind {
        switch try next() {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
        case UInt8(ascii: "n"): .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): .number
        default: throw unexpected("a value")
        }
    }

    /// Whether the value that comes next (after whitespace) is a string: `kind() == .string`
    /// in one compare.
    @inlinable @inline(__always) public mutating func stringFollows() throws(JSONError) -> Bool {
        try next() == UInt8(ascii: "\"")
    }

    /// Checks that nothing but whitespace follows the value just read.
    public mutating func finish() throws(JSONError) {
        skipWhitespace()
        guard position == bytes.count else { throw unexpected("the end of the text") }
    }

    /// A syntax error for a byte other than `expected` at the position.
    public func unexpected(_ expected: String) -> JSONError {
        guard position < bytes.count else { return JSONError(.syntax, "the JSON text ends where \(expected) should be") }
        return JSONError(.syntax, "unexpected '\(Self.printable(bytes[position]))' at byte \(position) where \(expected) should be")
    }

    /// A type error: the value next is not a `wanted`.
    @usableFromInline mutating func wrongType(_ wanted: Kind) -> JSONError {
        guard let found = try? kind() else { return unexpected("a value") }
        return JSONError(.type, "should be \(wanted == .object || wanted == .array ? "an" : "a") \(wanted.rawValue), not \(found == .object || found == .array ? "an" : "a") \(found.rawValue)")
    }

    private static func printable(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "\\x" + String(byte, radix: 16)
    }

    /// Whether `bytes` are valid UTF-8: ASCII (nearly every message) checked 32 bytes at a time,
    /// anything else by the standard library.
    public static func isUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while start + 32 <= bytes.count {
                let words = raw.loadUnaligned(fromByteOffset: start, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: start + 8, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: start + 16, as: UInt64.self) | raw.loadUnaligned(fromByteOffset: start + 24, as: UInt64.self)
                if ByteWords.hasNonASCII(words) { break }
                start += 32
            }
        }
        let ascii = bytes[ByteWords.skipClean(bytes, from: start, ByteWords.hasNonASCII)...].allSatisfy { $0 < 0x80 }
        return ascii || String(validating: bytes, as: UTF8.self) != nil
    }

    // MARK: Objects and arrays

    /// A string as it is in the text (a member's key, or a value read without being made a
    /// `String`): where the bytes between its quotes are, in 32-bit offsets (a message is at most
    /// 16 MiB), so that a few of them fit where they are kept.
    public struct Key: Sendable {
        @usableFromInline let start: Int32
        /// The end, negative when the bytes hold an escape.
        @usableFromInline let end: Int32

        /// The string whose bytes are `range`, `escaped` when they hold a `\` escape.
        @inlinable @inline(__always) public init(range: Range<Int>, escaped: Bool) {
            start = Int32(truncatingIfNeeded: range.lowerBound)
            end = Int32(truncatingIfNeeded: range.upperBound) * (escaped ? -1 : 1)
        }

        /// The bytes inside the quotes.
        @inlinable public var range: Range<Int> { Int(start)..<Int(end < 0 ? -end : end) }
        /// Whether they hold a `\` escape (the string's text is then not its bytes).
        @inlinable public var escaped: Bool { end < 0 }
    }

    /// Enters the object that comes next; its members follow with `nextKey(_:)`, `first` true.
    @inlinable @inline(__always) public mutating func beginObject() throws(JSONError) {
        guard try next() == UInt8(ascii: "{") else { throw wrongType(.object) }
        try enter()
        position += 1
    }

    /// The next member's key, with the reader at its value; nil at the object's end (consumed).
    /// `first` is true before the first member and set false here.
    @inlinable @inline(__always) public mutating func nextKey(_ first: inout Bool) throws(JSONError) -> Key? {
        var byte = try next()
        // After `{` or a value (a trailing comma is caught below: a key must follow it).
        if byte == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return nil
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw unexpected("',' or '}'") }
            position += 1
            byte = try next()
        }
        first = false
        guard byte == UInt8(ascii: "\"") else { throw unexpected("a key") }
        let key = try stringContent()
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// Consumes the key `name` and its colon when they come next written plainly (after the
    /// comma unless `first`, no whitespace, no escape): a writer's known order checked in a few
    /// word compares, with `first` then set false. False, with nothing consumed, for anything
    /// else (other spacing, an escape, another key, the object's end): `nextKey(_:)` reads it.
    /// `name` holds no quote, backslash or control character.
    @inlinable @inline(__always) public mutating func nextKeyIs(_ name: StaticString, _ first: inout Bool) -> Bool {
        let count = name.utf8CodeUnitCount
        // The comma, the quotes and the colon around the name's bytes (a message is at most
        // 16 MiB and a name a few bytes: the sums cannot overflow).
        let length = (first ? 0 : 1) &+ count &+ 3
        guard position &+ length <= bytes.count, let base = bytes.baseAddress else { return false }
        let at = UnsafeRawPointer(base + position) + (length &- count &- 3)
        guard first || base[position] == UInt8(ascii: ","), at.load(as: UInt8.self) == UInt8(ascii: "\""),
              at.load(fromByteOffset: count &+ 1, as: UInt8.self) == UInt8(ascii: "\""),
              at.load(fromByteOffset: count &+ 2, as: UInt8.self) == UInt8(ascii: ":"),
              Self.same(at + 1, UnsafeRawPointer(name.utf8Start), count) else { return false }
        position &+= length
        first = false
        return true
    }

    /// Whether `key` is `name` (an escaped key is compared as the text it stands for).
    @inlinable @inline(__always) public func key(_ key: Key, is name: StaticString) -> Bool {
        let count = key.range.count
        guard !key.escaped else { return unescaped(key.range) == Array(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)) }
        guard count == name.utf8CodeUnitCount else { return false }
        return Self.same(UnsafeRawPointer(bytes.baseAddress! + key.range.lowerBound), UnsafeRawPointer(name.utf8Start), count)
    }

    /// Whether the `count` bytes at `one` and `other` are the same: up to 16 as two overlapping
    /// words each (keys are short, and a call to `memcmp` costs more than they do).
    @inlinable @inline(__always) static func same(_ one: UnsafeRawPointer, _ other: UnsafeRawPointer, _ count: Int) -> Bool {
        switch count {
        case 8...16:
            return one.loadUnaligned(as: UInt64.self) == other.loadUnaligned(as: UInt64.self)
                && one.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == other.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            return one.loadUnaligned(as: UInt32.self) == other.loadUnaligned(as: UInt32.self)
                && one.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == other.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        case 0..<4:
            for index in 0..<count where one.load(fromByteOffset: index, as: UInt8.self) != other.load(fromByteOffset: index, as: UInt8.self) { return false }
            return true
        default:
            return memcmp(one, other, count) == 0
        }
    }

    /// The text of `key`.
    public func text(of key: Key) -> String {
        key.escaped ? String(decoding: unescaped(key.range), as: UTF8.self) : text(key.range)
    }

    /// Enters the array that comes next; its elements follow with `nextElement(_:)`, `first` true.
    @inlinable @inline(__always) public mutating func beginArray() throws(JSONError) {
        guard try next() == UInt8(ascii: "[") else { throw wrongType(.array) }
        try enter()
        position += 1
    }

    /// Whether another element follows (the reader is then at it); false at the array's end (consumed).
    @inlinable @inline(__always) public mutating func nextElement(_ first: inout Bool) throws(JSONError) -> Bool {
        let byte = try next()
        // After `[` or a value (after a trailing comma the caller finds no value).
        if byte == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return false
        }
        if !first {
            guard byte == UInt8(ascii: ",") else { throw unexpected("',' or ']'") }
            position += 1
        }
        first = false
        return true
    }

    @inlinable @inline(__always) mutating func enter() throws(JSONError) {
        guard depth < Self.maximumDepth else { throw JSONError(.syntax, "objects and arrays nest deeper than \(Self.maximumDepth)") }
        depth += 1
    }

    // MARK: Strings

    /// The string that comes next.
    @inlinable @inline(__always) public mutating func readString() throws(JSONError) -> String {
        guard try next() == UInt8(ascii: "\"") else { throw wrongType(.string) }
        let content = try stringContent()
        return content.escaped ? String(decoding: unescaped(content.range), as: UTF8.self) : text(content.range)
    }

    /// The string that comes next, as its bytes in the text (between the quotes) and whether they
    /// hold an escape: for a caller that compares them rather than keeping them.
    @inlinable @inline(__always) public mutating func readStringBytes() throws(JSONError) -> Key {
        guard try next() == UInt8(ascii: "\"") else { throw wrongType(.string) }
        return try stringContent()
    }

    /// Whether the string at `content` is the text `name`.
    @inlinable @inline(__always) public func string(_ content: Key, is name: String) -> Bool {
        if content.escaped { return unescaped(content.range).elementsEqual(name.utf8) }
        var name = name
        return name.withUTF8 { name in
            name.count == content.range.count && (name.isEmpty || memcmp(bytes.baseAddress! + content.range.lowerBound, name.baseAddress!, name.count) == 0)
        }
    }

    /// The text of the unescaped bytes `range`.
    @inlinable @inline(__always) public func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Reads a string's content from its opening quote (at the position) past its closing one:
    /// control characters are refused, escapes checked.
    @inlinable @inline(__always) mutating func stringContent() throws(JSONError) -> Key {
        position += 1
        let start = position
        // 8 bytes at a time: the first special byte of a word is the end, an escape or a refusal.
        // (Offsets within a message cannot overflow: they are summed unchecked.)
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while position &+ 8 <= bytes.count {
                let specials = ByteWords.specials(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)))
                if specials != 0 {
                    position &+= specials.trailingZeroBitCount &>> 3
                    if base[position] == UInt8(ascii: "\"") {
                        position &+= 1
                        return Key(range: Range(uncheckedBounds: (start, position &- 1)), escaped: false)
                    }
                    return try stringTail(from: start)
                }
                position &+= 8
            }
        }
        return try stringTail(from: start)
    }

    /// The rest of a string byte by byte, from the position (inside it) to past its closing quote.
    @usableFromInline mutating func stringTail(from start: Int) throws(JSONError) -> Key {
        var escaped = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return Key(range: start..<(position - 1), escaped: escaped)
            }
            if byte < 0x20 { throw JSONError(.syntax, "a control character (0x\(String(byte, radix: 16))) inside a string at byte \(position): JSON escapes them") }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                position += 1
                guard position < bytes.count else { break }
                position += try escapeLength(at: position)
            } else {
                position += 1
            }
        }
        throw JSONError(.syntax, "a string that never ends (from byte \(start - 1))")
    }

    /// How many bytes the escape whose letter is at `index` takes (its letter and any digits).
    private func escapeLength(at index: Int) throws(JSONError) -> Int {
        switch bytes[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return 1
        case UInt8(ascii: "u"):
            guard let unit = hexUnit(at: index + 1) else { throw JSONError(.syntax, "\\u without four hex digits at byte \(index - 1)") }
            // A surrogate must be half of a pair: high then low.
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard index + 10 < bytes.count, bytes[index + 5] == UInt8(ascii: "\\"), bytes[index + 6] == UInt8(ascii: "u"),
                      let low = hexUnit(at: index + 7), low >= 0xDC00 && low <= 0xDFFF else {
                    throw JSONError(.syntax, "a lone surrogate \\u\(String(unit, radix: 16)) at byte \(index - 1)")
                }
                return 11
            }
            guard !(unit >= 0xDC00 && unit <= 0xDFFF) else { throw JSONError(.syntax, "a lone surrogate \\u\(String(unit, radix: 16)) at byte \(index - 1)") }
            return 5
        default:
            throw JSONError(.syntax, "an unknown escape '\\\(Self.printable(bytes[index]))' at byte \(index - 1)")
        }
    }

    /// The UTF-16 unit of the four hex digits at `index`, if they are four hex digits.
    private func hexUnit(at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            unit = unit << 4 | UInt32(digit)
        }
        return unit
    }

    /// The UTF-8 of the string content `range`, its escapes (checked when it was read) replaced.
    public func unescaped(_ range: Range<Int>) -> [UInt8] {
        var text: [UInt8] = []
        text.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                text.append(byte)
                index += 1
                continue
            }
            let letter = bytes[index + 1]
            index += 2
            switch letter {
            case UInt8(ascii: "b"): text.append(0x08)
            case UInt8(ascii: "f"): text.append(0x0C)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hexUnit(at: index)!
                index += 4
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    let low = hexUnit(at: index + 2)!
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                text.append(contentsOf: Array(String(Unicode.Scalar(scalar)!).utf8))
            default: text.append(letter)
            }
        }
        return text
    }

    // MARK: Literals and numbers

    /// `true` or `false`, coming next.
    @inlinable @inline(__always) public mutating func readBool() throws(JSONError) -> Bool {
        switch try next() {
        case UInt8(ascii: "t") where matches("true"):
            position += 4
            return true
        case UInt8(ascii: "f") where matches("false"):
            position += 5
            return false
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            throw unexpected("true or false")
        default:
            throw wrongType(.bool)
        }
    }

    /// Consumes `null` if it comes next.
    @inlinable @inline(__always) public mutating func readNull() -> Bool {
        skipWhitespace()
        guard matches("null") else { return false }
        position += 4
        return true
    }

    /// Whether the bytes at the position spell `word`.
    @inlinable @inline(__always) func matches(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return false }
        return true
    }

    /// The bytes of the number that comes next, checked against JSON's grammar.
    public mutating func readNumberBytes() throws(JSONError) -> Range<Int> {
        let first = try next()
        guard first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) else { throw wrongType(.number) }
        let start = position
        if first == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") else {
            throw unexpected("a digit")
        }
        if bytes[position] == UInt8(ascii: "0") { position += 1 } else { digits() }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw unexpected("a digit") }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw unexpected("a digit") }
        }
        return start..<position
    }

    @discardableResult @inlinable @inline(__always) mutating func digits() -> Int {
        let from = position
        while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") { position += 1 }
        return position - from
    }

    /// The number that comes next, as a double: the nearest one to what is written. A number too
    /// large for a double is refused, never read as an infinity.
    @inlinable @inline(__always) public mutating func readDouble() throws(JSONError) -> Double {
        let range = try readNumberBytes()
        guard let value = Self.double(in: bytes, range) else {
            throw JSONError(.value, "\(text(range)) is too large for a double")
        }
        return value
    }

    /// The number that comes next as a `T`: integral and within `T`'s range (`1.0` and `1e2` are
    /// integral too), else a value error.
    @inlinable @inline(__always) public mutating func readInteger<T: FixedWidthInteger>(_ type: T.Type) throws(JSONError) -> T {
        let digit = try next() &- UInt8(ascii: "0"), start = position
        if digit < 10, let value = plainDigits() {
            guard value <= UInt64(T.max) else { throw outOfRange(start..<position, T.self) }
            return T(value)
        }
        let range = try readNumberBytes()
        // Plain digits, the usual form, read exactly.
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var magnitude: UInt64 = 0, plain = true
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { plain = false; break }
            let (times, overflowed) = magnitude.multipliedReportingOverflow(by: 10)
            let (plus, carried) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflowed, !carried else { throw outOfRange(range, T.self) }
            magnitude = plus
            index += 1
        }
        if plain {
            if negative {
                if magnitude == 0 { return 0 }
                guard T.isSigned, magnitude <= UInt64(T.max) + 1 else { throw outOfRange(range, T.self) }
                return magnitude == UInt64(T.max) + 1 ? T.min : 0 - T(magnitude)
            }
            guard magnitude <= UInt64(T.max) else { throw outOfRange(range, T.self) }
            return T(magnitude)
        }
        guard let value = Self.double(in: bytes, range), value == value.rounded(.towardZero), let exact = T(exactly: value) else {
            throw outOfRange(range, T.self)
        }
        return exact
    }

    /// The number at the position when it is plain digits that end there (no sign, fraction or
    /// exponent, no leading zero, at most 18 digits: what counts and versions are), with the
    /// reader past them; `nil`, nothing consumed, for any other form, which `readNumberBytes()`
    /// reads and checks.
    @inlinable @inline(__always) mutating func plainDigits() -> UInt64? {
        guard let base = bytes.baseAddress else { return nil }
        var index = position, value: UInt64 = 0
        // 18 digits never overflow; a 19th is left to the general reading.
        while index < bytes.count, index - position < 18 {
            let digit = base[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value &* 10 &+ UInt64(digit)
            index += 1
        }
        guard index > position, index == position + 1 || base[position] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count {
            let next = base[index]
            guard next != UInt8(ascii: "."), next | 0x20 != UInt8(ascii: "e"), next &- UInt8(ascii: "0") >= 10 else { return nil }
        }
        position = index
        return value
    }

    @usableFromInline func outOfRange<T>(_ range: Range<Int>, _ type: T.Type) -> JSONError {
        JSONError(.value, "\(text(range)) is not an integer that fits \(T.self)")
    }

    /// The double nearest to the number written in `range` (valid grammar), nil when it is too large.
    /// Up to 15 significant digits and 22 decimals (the usual geometry) it is an exact quotient
    /// of two doubles, correctly rounded; anything else is the C library's `strtod`.
    @usableFromInline static func double(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0, significant = 0, decimals = 0, inFraction = false, simple = true
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if mantissa != 0 || byte != UInt8(ascii: "0") { significant += 1 }
                mantissa = mantissa &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                if inFraction { decimals += 1 }
            } else {
                simple = false
                break
            }
            index += 1
        }
        if simple && significant <= 15 && decimals <= 22 {
            let magnitude = Double(mantissa) / exactPowersOfTen[decimals]
            return negative ? -magnitude : magnitude
        }
        let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: range.count + 1) { text -> Double in
            for (offset, index) in range.enumerated() { text[offset] = CChar(bitPattern: bytes[index]) }
            text[range.count] = 0
            return strtod(text.baseAddress!, nil)
        }
        return value.isFinite ? value : nil
    }

    /// 10⁰ … 10²², each exact as a double.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var power = 1.0
        for _ in 0..<exponent { power *= 10 }
        return power
    }

    // MARK: Skipping

    /// `skipValue()`, the strings and numbers most members hold passed over in line.
    @inlinable @inline(__always) public mutating func skipMemberValue() throws(JSONError) {
        switch try next() {
        case UInt8(ascii: "\""): _ = try stringContent()
        case UInt8(ascii: "0")...UInt8(ascii: "9"): if plainDigits() == nil { _ = try readNumberBytes() }
        case UInt8(ascii: "-"): _ = try readNumberBytes()
        default: try skipValue()
        }
    }

    /// Passes over the value that comes next by its brackets and strings alone — each `{` and `[`
    /// closed by its own kind, each string to its closing quote (control characters refused,
    /// escapes passed over) — taking what lies between as it is: for a value kept whole and
    /// checked when it is read (`NestedValue`), at a fraction of `skipValue`'s cost.
    public mutating func delimitValue() throws(JSONError) {
        let opening = try next()
        guard opening == UInt8(ascii: "{") || opening == UInt8(ascii: "[") else { return try skipValue() }
        // One bit per bracket open, the innermost lowest: 1 for an object, 0 for an array.
        var kinds: UInt64 = 0
        var open = 0
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth + open < Self.maximumDepth else { throw JSONError(.syntax, "objects and arrays nest deeper than \(Self.maximumDepth)") }
                kinds = kinds << 1 | (byte == UInt8(ascii: "{") ? 1 : 0)
                open += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard (kinds & 1 == 1) == (byte == UInt8(ascii: "}")) else { throw unexpected(kinds & 1 == 1 ? "'}'" : "']'") }
                kinds >>= 1
                open -= 1
                position += 1
                if open == 0 { return }
            case UInt8(ascii: "\""):
                _ = try stringContent()
            default:
                position += 1
            }
        }
        throw JSONError(.syntax, "the JSON text ends too early")
    }

    /// Checks and passes over the value that comes next, whatever it is (members no one asked for).
    public mutating func skipValue() throws(JSONError) {
        switch try next() {
        case UInt8(ascii: "{"):
            try beginObject()
            var first = true
            while try nextKey(&first) != nil { try skipValue() }
        case UInt8(ascii: "["):
            try beginArray()
            var first = true
            while try nextElement(&first) { try skipValue() }
        case UInt8(ascii: "\""): _ = try stringContent()
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"):
            guard readNull() else { throw unexpected("a value") }
        default: _ = try readNumberBytes()
        }
    }
}
