// A measuring prototype, not used by the product nor by the bench's clients: a hand-written
// JSON writer and reader over bytes, to show what the envelope codec would cost without
// Foundation's JSONEncoder/JSONDecoder (see PrototypeEnvelope.swift and the codec table).

/// Writes JSON into a byte array, formatted as Foundation's JSONEncoder does with
/// `.sortedKeys, .withoutEscapingSlashes` (the caller writes keys in sorted order).
struct PrototypeWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    /// Appends ASCII text as it is (punctuation, keys known to need no escaping).
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `"key":`
    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func comma() { bytes.append(UInt8(ascii: ",")) }

    /// A JSON string, escaped like JSONEncoder (quote, backslash, control characters).
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 0x0a: raw("\\n")
                case 0x0d: raw("\\r")
                case 0x09: raw("\\t")
                case 0x08: raw("\\b")
                case 0x0c: raw("\\f")
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    raw("\\u00")
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xf)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func integer<T: BinaryInteger>(_ value: T) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A number as JSONEncoder writes a Double: integral values without `.0`.
    mutating func number(_ value: Double) {
        if value == value.rounded(), abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            bytes.append(contentsOf: text.utf8)
        }
    }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// `[a,b,…]` with `element` writing each.
    mutating func array<T>(_ values: [T], _ element: (inout PrototypeWriter, T) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { comma() }
            element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}

/// A JSON value read by `PrototypeReader`. Numbers keep their text, so that 64-bit integers
/// (the `UInt64.max` arrow direction) stay exact.
enum PrototypeJSON {
    case object([(key: String, value: PrototypeJSON)])
    case array([PrototypeJSON])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    subscript(_ key: String) -> PrototypeJSON? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }

    var string: String? { if case .string(let value) = self { return value }; return nil }
    var double: Double? { if case .number(let text) = self { return Double(text) }; return nil }
    var int: Int? { if case .number(let text) = self { return Int(text) }; return nil }
    var uint64: UInt64? { if case .number(let text) = self { return UInt64(text) }; return nil }
    var bool: Bool? { if case .bool(let value) = self { return value }; return nil }
    var array: [PrototypeJSON]? { if case .array(let values) = self { return values }; return nil }
}

/// Reads one JSON document from bytes (RFC 8259, without \u escapes beyond the BMP checks a
/// real decoder would add); nil when the bytes are not JSON.
struct PrototypeReader {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    static func parse(_ bytes: [UInt8]) -> PrototypeJSON? {
        var reader = PrototypeReader(bytes)
        guard let value = reader.value() else { return nil }
        reader.skipSpace()
        return reader.index == bytes.count ? value : nil
    }

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0a || bytes[index] == 0x0d || bytes[index] == 0x09 {
            index += 1
        }
    }

    private mutating func value() -> PrototypeJSON? {
        skipSpace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: String, value: PrototypeJSON)] = []
            skipSpace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value() else { return nil }
                members.append((key, member))
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
                return nil
            }
        case UInt8(ascii: "["):
            index += 1
            var values: [PrototypeJSON] = []
            skipSpace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") { index += 1; return .array(values) }
            while true {
                guard let element = value() else { return nil }
                values.append(element)
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(values) }
                return nil
            }
        case UInt8(ascii: "\""):
            return string().map(PrototypeJSON.string)
        case UInt8(ascii: "t"):
            return literal("true", .bool(true))
        case UInt8(ascii: "f"):
            return literal("false", .bool(false))
        case UInt8(ascii: "n"):
            return literal("null", .null)
        default:
            let start = index
            while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            return .number(String(decoding: bytes[start..<index], as: UTF8.self))
        }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    }

    private mutating func literal(_ text: StaticString, _ value: PrototypeJSON) -> PrototypeJSON? {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        let matches = text.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { return nil }
        index += count
        return value
    }

    private mutating func string() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        let start = index
        var plain = true
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\") { plain = false; index += 1 }
            index += 1
        }
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        if plain { return String(decoding: bytes[start..<index], as: UTF8.self) }
        var out: [UInt8] = []
        var cursor = start
        while cursor < index {
            let byte = bytes[cursor]
            guard byte == UInt8(ascii: "\\") else { out.append(byte); cursor += 1; continue }
            cursor += 1
            switch bytes[cursor] {
            case UInt8(ascii: "n"): out.append(0x0a)
            case UInt8(ascii: "r"): out.append(0x0d)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0c)
            case UInt8(ascii: "u"):
                guard cursor + 4 < index, let scalar = UInt32(String(decoding: bytes[(cursor + 1)...(cursor + 4)], as: UTF8.self), radix: 16),
                      let unicode = Unicode.Scalar(scalar) else { return nil }
                out.append(contentsOf: String(Character(unicode)).utf8)
                cursor += 4
            default: out.append(bytes[cursor])
            }
            cursor += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
