/// Appends JSON text to a byte buffer: the one place where strings are escaped and numbers
/// are spelled.
final class JSONWriter {
    /// Only ever touched by one encoding on one thread: no need for runtime exclusivity checks,
    /// which otherwise cost a fifth of the encoding time.
    @exclusivity(unchecked) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    @inline(__always) func write(_ byte: UInt8) { bytes.append(byte) }

    func write(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// `text` as a JSON string: quotes, and `"` `\` and control characters escaped.
    func writeString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    func writeInteger<T: BinaryInteger>(_ value: T) {
        if value == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                let digit = UInt8(truncatingIfNeeded: magnitude % 10)
                buffer[count] = UInt8(ascii: "0") + digit
                count += 1
                magnitude /= 10
            }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// A finite double in its shortest exact form, without a needless `.0`. NaN and infinities
    /// are refused (as Foundation's `JSONEncoder` does): JSON has no spelling for them, and
    /// writing `null` would send a value no peer decodes as a number.
    func writeDouble(_ value: Double, at path: @autoclosure () -> CodingPath) throws {
        guard value.isFinite else { throw Self.nonFinite(value, at: path()) }
        if value == value.rounded(.towardZero) && abs(value) < 1e15 {
            writeInteger(Int64(value))
            if value == 0 && value.sign == .minus { bytes.insert(UInt8(ascii: "-"), at: bytes.count - 1) }
            return
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// The error for a non-finite number at `path`.
    static func nonFinite(_ value: Double, at path: CodingPath) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: path.keys, debugDescription: "\(value) is not a finite number: JSON cannot carry it"))
    }
}
