import Glibc

/// JSON text parsed (strictly, per RFC 8259) into a flat array of nodes in document order.
/// Containers record where their subtree ends, so siblings are reached without recursion and
/// nothing is copied until a value is asked for.
final class JSONDocument {
    enum Kind: UInt8 { case object, array, string, number, trueValue, falseValue, null }

    struct Node {
        var kind: Kind
        /// Byte range of the value (for strings: inside the quotes).
        var start, end: Int
        /// Index of the node after this value's subtree.
        var next: Int
        /// Number of members (objects) or elements (arrays).
        var count: Int
        /// Strings: whether they contain escapes.
        var escaped: Bool
    }

    let bytes: [UInt8]
    let nodes: [Node]

    /// Parses `bytes`; throws `DecodingError.dataCorrupted` (empty coding path) if they are not JSON.
    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        var parser = Parser(bytes: bytes)
        try parser.parseDocument()
        nodes = parser.nodes
    }
}

/// Builds a document's nodes: a strict recursive-descent JSON parser.
private struct Parser {
    typealias Node = JSONDocument.Node
    typealias Kind = JSONDocument.Kind
    let bytes: [UInt8]
    var nodes: [Node] = []
    var position = 0
    static let maximumDepth = 512

    init(bytes: [UInt8]) {
        self.bytes = bytes
        nodes.reserveCapacity(64)
    }

    mutating func parseDocument() throws {
        skipWhitespace()
        try parseValue(depth: 0)
        skipWhitespace()
        guard position == bytes.count else { throw syntaxError("unexpected text after the JSON value") }
    }

    private func syntaxError(_ what: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "\(what) at byte \(position)"))
    }

    @inline(__always) private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws {
        guard depth < Self.maximumDepth else { throw syntaxError("nesting too deep") }
        guard position < bytes.count else { throw syntaxError("unexpected end of input") }
        switch bytes[position] {
        case UInt8(ascii: "{"): try parseContainer(.object, depth: depth)
        case UInt8(ascii: "["): try parseContainer(.array, depth: depth)
        case UInt8(ascii: "\""): try parseString()
        case UInt8(ascii: "t"): try parseLiteral("true", .trueValue)
        case UInt8(ascii: "f"): try parseLiteral("false", .falseValue)
        case UInt8(ascii: "n"): try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try parseNumber()
        default: throw syntaxError("unexpected character")
        }
    }

    private mutating func parseContainer(_ kind: Kind, depth: Int) throws {
        let index = nodes.count
        nodes.append(Node(kind: kind, start: position, end: position, next: 0, count: 0, escaped: false))
        position += 1
        let close = kind == .object ? UInt8(ascii: "}") : UInt8(ascii: "]")
        var count = 0
        skipWhitespace()
        if position < bytes.count && bytes[position] == close {
            position += 1
        } else {
            while true {
                skipWhitespace()
                if kind == .object {
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw syntaxError("expected a key") }
                    try parseString()
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw syntaxError("expected ':'") }
                    position += 1
                    skipWhitespace()
                }
                try parseValue(depth: depth + 1)
                count += 1
                skipWhitespace()
                guard position < bytes.count else { throw syntaxError("unexpected end of input") }
                if bytes[position] == UInt8(ascii: ",") {
                    position += 1
                    continue
                }
                guard bytes[position] == close else { throw syntaxError("expected ',' or a closing bracket") }
                position += 1
                break
            }
        }
        nodes[index].end = position
        nodes[index].next = nodes.count
        nodes[index].count = count
    }

    private mutating func parseString() throws {
        position += 1
        let start = position
        var escaped = false
        while true {
            guard position < bytes.count else { throw syntaxError("unterminated string") }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte < 0x20 { throw syntaxError("control character in a string") }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                position += 1
                guard position < bytes.count else { throw syntaxError("unterminated string") }
                switch JSONDocument.escape(in: bytes, at: position) {
                case .valid(let extra): position += extra
                case .badUnicode: throw syntaxError("bad \\u escape")
                case .bad: throw syntaxError("bad escape")
                }
            }
            position += 1
        }
        nodes.append(Node(kind: .string, start: start, end: position, next: nodes.count + 1, count: 0, escaped: escaped))
        position += 1
    }

    private mutating func parseLiteral(_ literal: StaticString, _ kind: Kind) throws {
        let length = literal.utf8CodeUnitCount
        guard position + length <= bytes.count else { throw syntaxError("unexpected end of input") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<length).allSatisfy { bytes[position + $0] == expected[$0] }
        }
        guard matches else { throw syntaxError("unexpected character") }
        nodes.append(Node(kind: kind, start: position, end: position + length, next: nodes.count + 1, count: 0, escaped: false))
        position += length
    }

    private mutating func parseNumber() throws {
        let start = position
        func digits(_ parser: inout Parser) -> Int {
            let from = parser.position
            while parser.position < parser.bytes.count, parser.bytes[parser.position] >= UInt8(ascii: "0"),
                  parser.bytes[parser.position] <= UInt8(ascii: "9") { parser.position += 1 }
            return parser.position - from
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { throw syntaxError("bad number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            guard digits(&self) > 0 else { throw syntaxError("bad number") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits(&self) > 0 else { throw syntaxError("bad number") }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits(&self) > 0 else { throw syntaxError("bad number") }
        }
        nodes.append(Node(kind: .number, start: start, end: position, next: nodes.count + 1, count: 0, escaped: false))
    }

}

extension JSONDocument {
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    // MARK: Reading values

    /// The string at node `index`, unescaped; `nil` for an escape that is not valid Unicode.
    func string(at index: Int) -> String? {
        let node = nodes[index]
        return bytes.withUnsafeBufferPointer { buffer in
            let raw = UnsafeBufferPointer(rebasing: buffer[node.start..<node.end])
            guard node.escaped else { return String(decoding: raw, as: UTF8.self) }
            return Self.unescape(raw)
        }
    }

    /// Whether the string at node `index` equals `key` (compared without allocating when unescaped).
    func stringEquals(_ index: Int, _ key: String) -> Bool {
        let node = nodes[index]
        if node.escaped { return string(at: index) == key }
        let length = node.end - node.start
        var key = key
        return key.withUTF8 { utf8 in
            utf8.count == length && bytes.withUnsafeBufferPointer { buffer in
                memcmp(buffer.baseAddress! + node.start, utf8.baseAddress!, length) == 0
            }
        }
    }

    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = 0
        func hex4(_ at: Int) -> UInt32 {
            (0..<4).reduce(UInt32(0)) { $0 << 4 | hexValue(raw[at + $1])! }
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let kind = raw[index + 1]
            index += 2
            switch kind {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    guard index + 5 < raw.count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u") else { return nil }
                    let low = hex4(index + 2)
                    guard (0xDC00...0xDFFF).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                guard let unicode = Unicode.Scalar(scalar) else { return nil }
                output.append(contentsOf: Array(String(Character(unicode)).utf8))
            default: output.append(kind)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The number at node `index` as a signed integer, if it is one that fits exactly.
    func integer(at index: Int) -> Int64? {
        let node = nodes[index]
        var position = node.start
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        var value: Int64 = 0
        while position < node.end {
            let byte = bytes[position]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return double(at: index).flatMap { Int64(exactly: $0) } }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (plus, overflow2) = times.subtractingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = plus
            position += 1
        }
        if negative { return value }
        return value == Int64.min ? nil : -value
    }

    /// The number at node `index` as an unsigned integer, if it is one that fits exactly.
    func unsigned(at index: Int) -> UInt64? {
        let node = nodes[index]
        var value: UInt64 = 0
        for position in node.start..<node.end {
            let byte = bytes[position]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                if byte == UInt8(ascii: "-") { return integer(at: index).flatMap { UInt64(exactly: $0) } }
                return double(at: index).flatMap { UInt64(exactly: $0) }
            }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (plus, overflow2) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = plus
        }
        return value
    }

    /// Powers of ten that doubles hold exactly.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }

    /// The number at node `index` as a double. Numbers of up to 15 significant digits without an
    /// exponent are computed exactly from their digits (one correctly rounded division by an
    /// exact power of ten); anything else is parsed as text.
    func double(at index: Int) -> Double? {
        let node = nodes[index]
        return bytes.withUnsafeBufferPointer { Self.double(in: $0, from: node.start, to: node.end) }
    }

    /// The number (valid JSON) in `bytes[start..<end]` as a double, as `double(at:)` reads it;
    /// also used by `JSONReader`, so that both decoders read every number alike.
    static func double(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Double? {
        var position = start
        let negative = bytes[position] == UInt8(ascii: "-")
        if negative { position += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        var simple = true
        while position < end {
            let byte = bytes[position]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            } else {
                simple = false
                break
            }
            position += 1
        }
        if simple && digits <= 15 && fractionDigits <= 22 {
            let magnitude = Double(mantissa) / Self.exactPowersOfTen[fractionDigits]
            return negative ? -magnitude : magnitude
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }
}

/// What follows a backslash in a JSON string.
enum JSONEscape: Equatable {
    /// A valid escape taking `extra` more bytes after its letter (4 for `\uXXXX`, else 0).
    case valid(extra: Int)
    /// `\u` without four hex digits.
    case badUnicode
    /// A letter JSON does not define.
    case bad
}

extension JSONDocument {
    /// The escape whose letter is at `position` of `bytes` (the byte after a backslash, which
    /// must exist); shared by the tree parser and the direct reader (`JSONReader`).
    static func escape<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, at position: Int) -> JSONEscape where Bytes.Index == Int {
        switch bytes[position] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return .valid(extra: 0)
        case UInt8(ascii: "u"):
            guard position + 4 < bytes.count, (1...4).allSatisfy({ hexValue(bytes[position + $0]) != nil }) else { return .badUnicode }
            return .valid(extra: 4)
        default:
            return .bad
        }
    }
}
