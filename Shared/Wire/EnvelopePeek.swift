import Glibc

/// The few header fields the bus reads from a message's JSON without decoding it: where the
/// first top-level `service`, `id`, `correlationId`, `device` and `replyTo` strings are (the decoder, too,
/// takes the first of a repeated key), and, when asked, the body's `element` and `point` (what
/// owns a tap: `Routing`). Other values nested in `body` are skipped, never mistaken for the
/// header's; and, with them, the `style` of the body's `presentation` (what a presentation's
/// topic is keyed by: `Topic.styled`). Pure: bytes in, byte ranges out.
public struct EnvelopePeek: Sendable, Equatable {
    /// Byte range of `service`'s value (inside the quotes), if the object has one.
    public var service: Range<Int>? { serviceSpan.range }
    /// Byte range of `id`'s value.
    public var id: Range<Int>? { idSpan.range }
    /// Byte range of `correlationId`'s value.
    public var correlationId: Range<Int>? { correlationIdSpan.range }
    /// Byte range of `device`'s value.
    public var device: Range<Int>? { deviceSpan.range }
    /// True when `device`'s value holds a `\` escape (its bytes are not the id's).
    public var deviceEscaped = false
    /// Byte range of `replyTo`'s value.
    public var replyTo: Range<Int>? { replyToSpan.range }
    /// Byte range of the body's `element` value, when its first `element` is a string.
    public var element: Range<Int>? { elementSpan.range }
    /// True when `element`'s value holds a `\` escape (its bytes are not the name's).
    public var elementEscaped = false
    /// True when the body's first `point` is there and not `null`.
    public var point = false
    /// Byte range of the first `style` value of the body's first `presentation` object, when
    /// it is a string.
    public var style: Range<Int>? { styleSpan.range }
    /// True when `style`'s value holds a `\` escape.
    public var styleEscaped = false
    /// True once the first `body` has been read for `element`, `point` and `style`.
    public var bodyRead = false
    /// True when a top-level key read or the `service` value holds a `\` escape: the bus cannot
    /// compare it as bytes, so it refuses the message (no client of ours escapes them).
    public var escaped = false

    // The ranges, each in 16 bytes (an optional range takes 24): the whole peek stays under the
    // 128 bytes a copy makes inline, where the proxy, which passes it on for every message,
    // called `memcpy` for each copy.
    private var serviceSpan = Span(), idSpan = Span(), correlationIdSpan = Span(), deviceSpan = Span()
    private var replyToSpan = Span(), elementSpan = Span(), styleSpan = Span()

    /// An optional byte range in 16 bytes: none is a start of `Int.min`.
    private struct Span: Sendable, Equatable {
        private var start = Int.min, end = Int.min

        /// The range, if there is one.
        var range: Range<Int>? {
            @inline(__always) get { start == Int.min ? nil : start..<end }
            @inline(__always) set { (start, end) = newValue.map { ($0.lowerBound, $0.upperBound) } ?? (Int.min, Int.min) }
        }
    }

    /// Header fields a reader may need (`init?(_:upTo:)`).
    public struct Fields: OptionSet, Sendable {
        /// The `OptionSet` bits.
        public let rawValue: UInt8
        /// The fields of `rawValue`'s bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// `service`.
        public static let service = Fields(rawValue: 1)
        /// `id`.
        public static let id = Fields(rawValue: 2)
        /// `correlationId`.
        public static let correlationId = Fields(rawValue: 4)
        /// `device`.
        public static let device = Fields(rawValue: 8)
        /// `replyTo`.
        public static let replyTo = Fields(rawValue: 16)
        /// The body's `element` and `point` (read with the body: `element`, `elementEscaped`,
        /// `point`, `bodyRead`). The whole read (no fields) reads them too.
        public static let element = Fields(rawValue: 32)

        /// The fields our encoders write before `service` (`DirectEncoding.header`), and it.
        static let beforeService: Fields = [.id, .correlationId, .service]
        /// The fields `Scanner.peekWrittenHeader` reads.
        static let written: Fields = [.id, .correlationId, .service, .device, .element]
    }

    /// The header of the JSON object in `bytes`, the whole object read; `nil` when they are not
    /// one (the services answer that; the bus only forwards it).
    public init?(_ bytes: UnsafeRawBufferPointer) {
        self.init(bytes, upTo: [])
    }

    /// The header of `bytes`, read only as far as `fields` need: the scan stops as soon as the
    /// first string value of each of them is found — every later key is either another field or
    /// a repeat of one, and the decoders take a repeated key's first value, so nothing after that
    /// point can change what they read (our encoders write the header first, so the body is
    /// never scanned). When one of `fields` is missing (or `fields` is empty) it reads the whole
    /// object, as `init?(_:)` does. Only what was read is checked: `nil` when the bytes are not
    /// a JSON object up to the stop; `escaped` covers the keys before it. When `fields` stop at
    /// `service`, `device` or the body's `element`, the header as our encoders write it is
    /// first read straight through (`Scanner.peekWrittenHeader`), with the same result.
    public init?(_ bytes: UnsafeRawBufferPointer, upTo fields: Fields) {
        self.init()
        guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
        let start = base.assumingMemoryBound(to: UInt8.self)
        if Fields.written.isSuperset(of: fields), !fields.isDisjoint(with: [.service, .device, .element]) {
            var scanner = Scanner(bytes: start, count: bytes.count)
            if scanner.peekWrittenHeader(into: &self, upTo: fields) { return }
            self = EnvelopePeek()
        }
        var scanner = Scanner(bytes: start, count: bytes.count)
        guard scanner.peekObject(into: &self, upTo: fields) else { return nil }
    }

    /// The header of `bytes` (for tests).
    public init?(_ bytes: [UInt8]) {
        guard let peek = bytes.withUnsafeBytes({ EnvelopePeek($0) }) else { return nil }
        self = peek
    }

    /// The header of `bytes` read only as far as `fields` need (`init?(_:upTo:)`).
    public init?(_ bytes: [UInt8], upTo fields: Fields) {
        guard let peek = bytes.withUnsafeBytes({ EnvelopePeek($0, upTo: fields) }) else { return nil }
        self = peek
    }

    /// The header of `bytes` for a client reading answers: read up to `service`, `id` and
    /// `correlationId` (`init?(_:upTo:)`).
    public init?(headerOf bytes: [UInt8]) {
        self.init(bytes, upTo: [.service, .id, .correlationId])
    }

    private init() {}

    /// A structural JSON scanner: finds the top-level keys and skips every value.
    private struct Scanner {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        var position = 0

        @inline(__always)
        static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        @inline(__always)
        mutating func skipWhitespace() {
            while position < count, Self.isWhitespace(bytes[position]) { position += 1 }
        }

        /// Reads a string at `position`; returns its inside range and whether it has escapes.
        /// Ids and names are long: eight bytes at a time are tested for a quote or a backslash
        /// (`quoteOrBackslash`) while eight are left, then one by one.
        @inline(__always)
        mutating func string() -> (range: Range<Int>, escaped: Bool)? {
            guard position < count, bytes[position] == UInt8(ascii: "\"") else { return nil }
            let start = position + 1
            var escaped = false
            var at = start
            while at < count {
                if at + 8 <= count {
                    let word = UInt64(littleEndian: UnsafeRawPointer(bytes + at).loadUnaligned(as: UInt64.self))
                    let marks = Self.quoteOrBackslash(word)
                    if marks == 0 {
                        at += 8
                        continue
                    }
                    at += marks.trailingZeroBitCount >> 3
                }
                let byte = bytes[at]
                if byte == UInt8(ascii: "\"") {
                    position = at + 1
                    return (start..<at, escaped)
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    at += 2
                } else {
                    at += 1
                }
            }
            return nil
        }

        /// The high bit of each byte of `word` (read little-endian) that is a quote or a
        /// backslash, and possibly of bytes after the first such byte (a borrow of the zero test
        /// carries upwards): the lowest bit set marks the first one exactly.
        @inline(__always)
        static func quoteOrBackslash(_ word: UInt64) -> UInt64 {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            return ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes) & (ones &* 0x80)
        }

        /// Skips one value of any kind (containers by depth, strings by their quotes).
        mutating func skipValue() -> Bool {
            guard position < count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while position < count {
                    switch bytes[position] {
                    case UInt8(ascii: "\""):
                        guard string() != nil else { return false }
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 { position += 1; return true }
                    default:
                        break
                    }
                    position += 1
                }
                return false
            default:
                // A number or a literal: up to the next delimiter.
                while position < count {
                    switch bytes[position] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return true
                    default: position += 1
                    }
                }
                return true
            }
        }

        /// Whether the key at `range` is `name` (compared by length first).
        @inline(__always)
        func equals(_ range: Range<Int>, _ name: StaticString) -> Bool {
            guard range.count == name.utf8CodeUnitCount else { return false }
            return Self.same(bytes + range.lowerBound, name.utf8Start, range.count)
        }

        /// Whether the `length` bytes at `one` and `other` are the same: compared a word at a
        /// time in place (the last word overlapping the one before), never past either end; a
        /// call of `memcmp` would cost more than the few names and literals compared.
        @inline(__always)
        static func same(_ one: UnsafePointer<UInt8>, _ other: UnsafePointer<UInt8>, _ length: Int) -> Bool {
            let one = UnsafeRawPointer(one), other = UnsafeRawPointer(other)
            if length >= 8 {
                var offset = 0
                while offset + 8 < length {
                    guard one.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == other.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    else { return false }
                    offset += 8
                }
                return one.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self) == other.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            }
            if length >= 4 {
                return one.loadUnaligned(as: UInt32.self) == other.loadUnaligned(as: UInt32.self)
                    && one.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self) == other.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            }
            return memcmp(one, other, length) == 0
        }

        /// Whether the key at `range` (`escaped`: written with escapes) is `name`.
        func key(_ range: Range<Int>, escaped: Bool, is name: StaticString) -> Bool {
            guard escaped else { return equals(range, name) }
            let literal = Array(UnsafeBufferPointer(start: bytes + range.lowerBound - 1, count: range.count + 2))
            return JSONStringLiteral.text(ofLiteral: literal).map { $0.utf8.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)) } ?? false
        }

        /// Reads the body object at `position` for its first `element` (a string), its first
        /// `point` (there and not `null`) and its first `presentation`'s first `style` (a
        /// string), as the decoders read them; false when it is not an object.
        mutating func peekBody(into peek: inout EnvelopePeek) -> Bool {
            var seenElement = false, seenPoint = false, seenPresentation = false
            return walkObject { scanner, name, nameEscaped in
                if !seenElement, scanner.key(name, escaped: nameEscaped, is: "element") {
                    seenElement = true
                    if scanner.bytes[scanner.position] == UInt8(ascii: "\"") {
                        guard let (value, valueEscaped) = scanner.string() else { return false }
                        peek.elementSpan.range = value
                        peek.elementEscaped = valueEscaped
                    }
                } else if !seenPoint, scanner.key(name, escaped: nameEscaped, is: "point") {
                    seenPoint = true
                    peek.point = scanner.bytes[scanner.position] != UInt8(ascii: "n")
                } else if !seenPresentation, scanner.key(name, escaped: nameEscaped, is: "presentation") {
                    seenPresentation = true
                    if scanner.bytes[scanner.position] == UInt8(ascii: "{") { return scanner.peekPresentation(into: &peek) }
                }
                return true
            }
        }

        /// Reads the presentation object at `position` for its first `style` (a string); false
        /// when it is not an object.
        mutating func peekPresentation(into peek: inout EnvelopePeek) -> Bool {
            var seenStyle = false
            return walkObject { scanner, name, nameEscaped in
                guard !seenStyle, scanner.key(name, escaped: nameEscaped, is: "style") else { return true }
                seenStyle = true
                if scanner.bytes[scanner.position] == UInt8(ascii: "\"") {
                    guard let (value, valueEscaped) = scanner.string() else { return false }
                    peek.styleSpan.range = value
                    peek.styleEscaped = valueEscaped
                }
                return true
            }
        }

        /// Walks the object at `position` (its `{`) to its end, calling `visit` with each member's
        /// name (and whether it holds escapes) at the start of its value, which `visit` may read
        /// (the value is skipped when it did not move); false when it is not an object, or when
        /// `visit` says a value it read is malformed.
        mutating func walkObject(_ visit: (inout Scanner, Range<Int>, Bool) -> Bool) -> Bool {
            position += 1
            skipWhitespace()
            if position < count, bytes[position] == UInt8(ascii: "}") { position += 1; return true }
            while true {
                skipWhitespace()
                guard let (name, nameEscaped) = string() else { return false }
                skipWhitespace()
                guard position < count, bytes[position] == UInt8(ascii: ":") else { return false }
                position += 1
                skipWhitespace()
                guard position < count else { return false }
                let valueStart = position
                guard visit(&self, name, nameEscaped) else { return false }
                if position == valueStart { guard skipValue(), position > valueStart else { return false } }
                skipWhitespace()
                guard position < count else { return false }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return true }
                guard bytes[position] == UInt8(ascii: ",") else { return false }
                position += 1
            }
        }

        /// Records the string at `value` if `key` is a header field not seen yet; returns that field.
        @inline(__always)
        func note(key: Range<Int>, value: Range<Int>, valueEscaped: Bool, into peek: inout EnvelopePeek) -> Fields {
            switch key.count {
            case 2:
                if peek.id == nil, equals(key, "id") {
                    peek.idSpan.range = value
                    return .id
                }
            case 6:
                if peek.device == nil, equals(key, "device") {
                    peek.deviceSpan.range = value
                    peek.deviceEscaped = valueEscaped
                    return .device
                }
            case 7:
                if peek.service == nil, equals(key, "service") {
                    peek.serviceSpan.range = value
                    if valueEscaped { peek.escaped = true }
                    return .service
                } else if peek.replyTo == nil, equals(key, "replyTo") {
                    peek.replyToSpan.range = value
                    return .replyTo
                }
            case 13:
                if peek.correlationId == nil, equals(key, "correlationId") {
                    peek.correlationIdSpan.range = value
                    return .correlationId
                }
            default:
                break
            }
            return []
        }

        /// Whether `text` is next; if so, goes past it.
        @inline(__always)
        mutating func literal(_ text: StaticString) -> Bool {
            let length = text.utf8CodeUnitCount
            guard count - position >= length, Self.same(bytes + position, text.utf8Start, length) else { return false }
            position += length
            return true
        }

        /// Goes past one or more ASCII digits; false when there is none.
        @inline(__always)
        mutating func digits() -> Bool {
            let start = position
            while position < count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9") { position += 1 }
            return position > start
        }

        /// The header as our encoders write it (`DirectEncoding.header`) — `{"v":N,"type":"…",
        /// "id":"…","correlationId":"…","service":"…"`, then `,"device":"…"`, then `,"seq":N,
        /// "time":"…"`, the optional `traceparent`, `parentSpan` and `replyTo`, and `,"body":{` —
        /// read straight through up to where `fields` stop (`Fields.written`, one of `service`,
        /// `device`, `element` among them): after `service` when they are among
        /// `Fields.beforeService`, else after `device` without `element`, else after the body
        /// (read by `peekBody`). False as soon as the bytes differ from that (another order,
        /// spaces, a key written with escapes, a number not in digits, no device, …): the whole
        /// scan then reads them. Where it succeeds it finds what `peekObject(into:upTo:)` finds:
        /// that scan, too, records every header field it passes and stops at the same place.
        mutating func peekWrittenHeader(into peek: inout EnvelopePeek, upTo fields: Fields) -> Bool {
            guard literal(#"{"v":"#), digits(), literal(#","type":"#), string() != nil,
                  literal(#","id":"#), let (id, _) = string(),
                  literal(#","correlationId":"#), let (correlationId, _) = string(),
                  literal(#","service":"#), let (service, serviceEscaped) = string()
            else { return false }
            peek.idSpan.range = id
            peek.correlationIdSpan.range = correlationId
            peek.serviceSpan.range = service
            peek.escaped = serviceEscaped
            if Fields.beforeService.isSuperset(of: fields) { return true }
            guard literal(#","device":"#), let (device, deviceEscaped) = string() else { return false }
            peek.deviceSpan.range = device
            peek.deviceEscaped = deviceEscaped
            guard fields.contains(.element) else { return true }
            guard literal(#","seq":"#), digits(), literal(#","time":"#), string() != nil else { return false }
            if literal(#","traceparent":"#), string() == nil { return false }
            if literal(#","parentSpan":"#), string() == nil { return false }
            if literal(#","replyTo":"#) {
                guard let (replyTo, _) = string() else { return false }
                peek.replyToSpan.range = replyTo
            }
            guard literal(#","body":"#), position < count, bytes[position] == UInt8(ascii: "{") else { return false }
            let bodyStart = position
            // A tap on an element as ours write it, `{"element":"…"}`, read at once: what
            // `peekBody` finds in it (that string, no point); any other body is walked.
            if literal(#"{"element":"#), let (element, elementEscaped) = string(), position < count, bytes[position] == UInt8(ascii: "}") {
                position += 1
                peek.elementSpan.range = element
                peek.elementEscaped = elementEscaped
            } else {
                position = bodyStart
                guard peekBody(into: &peek) else { return false }
            }
            peek.bodyRead = true
            return true
        }

        mutating func peekObject(into peek: inout EnvelopePeek, upTo fields: Fields) -> Bool {
            skipWhitespace()
            guard position < count, bytes[position] == UInt8(ascii: "{") else { return false }
            position += 1
            skipWhitespace()
            if position < count, bytes[position] == UInt8(ascii: "}") { return true }
            // The fields found so far (`bodyRead` counting as `.element`).
            var found: Fields = []
            while true {
                skipWhitespace()
                guard let (key, keyEscaped) = string() else { return false }
                if keyEscaped { peek.escaped = true }
                skipWhitespace()
                guard position < count, bytes[position] == UInt8(ascii: ":") else { return false }
                position += 1
                skipWhitespace()
                let valueStart = position
                if position < count, bytes[position] == UInt8(ascii: "\"") {
                    guard let (value, valueEscaped) = string() else { return false }
                    found.formUnion(note(key: key, value: value, valueEscaped: valueEscaped, into: &peek))
                } else if !peek.bodyRead, fields.isEmpty || fields.contains(.element), equals(key, "body"),
                          position < count, bytes[position] == UInt8(ascii: "{") {
                    guard peekBody(into: &peek) else { return false }
                    peek.bodyRead = true
                    found.insert(.element)
                } else {
                    guard skipValue(), position > valueStart else { return false }
                }
                if !fields.isEmpty, found.isSuperset(of: fields) { return true }
                skipWhitespace()
                guard position < count else { return false }
                if bytes[position] == UInt8(ascii: "}") { return true }
                guard bytes[position] == UInt8(ascii: ",") else { return false }
                position += 1
            }
        }
    }
}
