/// The few header fields the bus reads from a message's JSON without decoding it: where the
/// first top-level `service`, `id`, `correlationId`, `device` and `replyTo` strings are (the decoder, too,
/// takes the first of a repeated key). Values nested in `body` are skipped, never mistaken for
/// the header's. Pure: bytes in, byte ranges out.
public struct EnvelopePeek: Sendable, Equatable {
    /// Byte range of `service`'s value (inside the quotes), if the object has one.
    public var service: Range<Int>?
    /// Byte range of `id`'s value.
    public var id: Range<Int>?
    /// Byte range of `correlationId`'s value.
    public var correlationId: Range<Int>?
    /// Byte range of `device`'s value.
    public var device: Range<Int>?
    /// True when `device`'s value holds a `\` escape (its bytes are not the id's).
    public var deviceEscaped = false
    /// Byte range of `replyTo`'s value.
    public var replyTo: Range<Int>?
    /// True when a top-level key or the `service` value holds a `\` escape: the bus cannot
    /// compare it as bytes, so it refuses the message (no client of ours escapes them).
    public var escaped = false

    /// The header of the JSON object in `bytes`; `nil` when they are not one (the services
    /// answer that; the bus only forwards it).
    public init?(_ bytes: UnsafeRawBufferPointer) {
        var scanner = Scanner(bytes: bytes)
        guard scanner.peekObject(into: &self) else { return nil }
    }

    /// The header of `bytes` (for tests).
    public init?(_ bytes: [UInt8]) {
        guard let peek = bytes.withUnsafeBytes({ EnvelopePeek($0) }) else { return nil }
        self = peek
    }

    /// The header of `bytes` for a client reading answers: like `init?(_:)`, but it stops at
    /// the `body` key once `service`, `id` and `correlationId` were found before it (our
    /// services write the header first), without scanning the body; the object after that
    /// point is not checked.
    public init?(headerOf bytes: [UInt8]) {
        guard let peek = bytes.withUnsafeBytes({ raw -> EnvelopePeek? in
            var scanner = Scanner(bytes: raw, stopsAtBody: true)
            var peek = EnvelopePeek()
            return scanner.peekObject(into: &peek) ? peek : nil
        }) else { return nil }
        self = peek
    }

    private init() {}

    /// A structural JSON scanner: finds the top-level keys and skips every value.
    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var stopsAtBody = false
        var position = 0

        mutating func skipWhitespace() {
            while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x0A || bytes[position] == 0x0D || bytes[position] == 0x09 {
                position += 1
            }
        }

        /// Reads a string at `position`; returns its inside range and whether it has escapes.
        mutating func string() -> (range: Range<Int>, escaped: Bool)? {
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
            let start = position + 1
            var escaped = false
            position = start
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\""):
                    defer { position += 1 }
                    return (start..<position, escaped)
                case UInt8(ascii: "\\"):
                    escaped = true
                    position += 2
                default:
                    position += 1
                }
            }
            return nil
        }

        /// Skips one value of any kind (containers by depth, strings by their quotes).
        mutating func skipValue() -> Bool {
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "\""):
                return string() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while position < bytes.count {
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
                while position < bytes.count {
                    switch bytes[position] {
                    case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09: return true
                    default: position += 1
                    }
                }
                return true
            }
        }

        func equals(_ range: Range<Int>, _ name: StaticString) -> Bool {
            guard range.count == name.utf8CodeUnitCount else { return false }
            let text = name.utf8Start
            for offset in 0..<range.count where bytes[range.lowerBound + offset] != text[offset] { return false }
            return true
        }

        mutating func peekObject(into peek: inout EnvelopePeek) -> Bool {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { return false }
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") { return true }
            while true {
                skipWhitespace()
                guard let (key, keyEscaped) = string() else { return false }
                if keyEscaped { peek.escaped = true }
                if stopsAtBody, peek.service != nil, peek.id != nil, peek.correlationId != nil, equals(key, "body") { return true }
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return false }
                position += 1
                skipWhitespace()
                let valueStart = position
                if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
                    guard let (value, valueEscaped) = string() else { return false }
                    if equals(key, "service"), peek.service == nil {
                        peek.service = value
                        if valueEscaped { peek.escaped = true }
                    } else if equals(key, "id"), peek.id == nil {
                        peek.id = value
                    } else if equals(key, "correlationId"), peek.correlationId == nil {
                        peek.correlationId = value
                    } else if equals(key, "device"), peek.device == nil {
                        peek.device = value
                        peek.deviceEscaped = valueEscaped
                    } else if equals(key, "replyTo"), peek.replyTo == nil {
                        peek.replyTo = value
                    }
                } else {
                    guard skipValue(), position > valueStart else { return false }
                }
                skipWhitespace()
                guard position < bytes.count else { return false }
                if bytes[position] == UInt8(ascii: "}") { return true }
                guard bytes[position] == UInt8(ascii: ",") else { return false }
                position += 1
            }
        }
    }
}
