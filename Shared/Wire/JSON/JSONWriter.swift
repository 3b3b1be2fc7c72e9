
/// Appends JSON text to a byte buffer: the one place where strings are escaped and numbers
/// are spelled. A service keeps one per thread and hands it to `EnvelopeCodec.frames(_:using:)`
/// for every message it sends: its buffer is reused, not allocated for each.
public final class JSONWriter {
    /// The bytes written so far, in storage of its own (appending to an `Array` costs a
    /// uniqueness check and a generic copy per call; envelopes are written in ~40 pieces).
    /// Only ever touched by one encoding on one thread: no need for runtime exclusivity checks,
    /// which otherwise cost a fifth of the encoding time.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    /// An empty writer with room for `capacity` bytes (it grows when it needs more).
    public init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        storage = .allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// What was written, as an array.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    /// Calls `body` with the bytes written so far (valid only during the call).
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage, count: count))
    }

    /// Forgets what was written, keeping the buffer for the next text.
    func reset() { count = 0 }

    /// Room for `more` bytes after `count`.
    @inline(__always) private func reserve(_ more: Int) {
        if count + more > capacity { grow(count + more) }
    }

    private func grow(_ needed: Int) {
        let larger = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = larger
    }

    @inline(__always) func write(_ byte: UInt8) {
        reserve(1)
        storage[count] = byte
        count += 1
    }

    /// `raw` bytes as they are.
    @inline(__always) func write(_ raw: UnsafeBufferPointer<UInt8>) {
        guard let base = raw.baseAddress, raw.count > 0 else { return }
        reserve(raw.count)
        Self.copy(base, raw.count, to: storage + count)
        count += raw.count
    }

    /// Copies `length` bytes (more than 0) from `source` to `target`: up to 32 (keys, ids, times:
    /// most of what is written) as words in place, the first and the last overlapping rather
    /// than a byte-by-byte tail; more through `memmove` (whose call costs more than the copy
    /// of a short text).
    @inline(__always) private static func copy(_ source: UnsafePointer<UInt8>, _ length: Int, to target: UnsafeMutablePointer<UInt8>) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
        switch length {
        case 8...16:
            let head = from.loadUnaligned(as: UInt64.self), tail = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        case 17...32:
            let first = from.loadUnaligned(as: UInt64.self), second = from.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            let third = from.loadUnaligned(fromByteOffset: length - 16, as: UInt64.self)
            let last = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            to.storeBytes(of: first, as: UInt64.self)
            to.storeBytes(of: second, toByteOffset: 8, as: UInt64.self)
            to.storeBytes(of: third, toByteOffset: length - 16, as: UInt64.self)
            to.storeBytes(of: last, toByteOffset: length - 8, as: UInt64.self)
        case 4..<8:
            let head = from.loadUnaligned(as: UInt32.self), tail = from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
        case 1..<4:
            for index in 0..<length { target[index] = source[index] }
        default:
            target.update(from: source, count: length)
        }
    }

    @inline(__always) func write(_ literal: StaticString) {
        literal.withUTF8Buffer { write($0) }
    }

    /// The UTF-8 of `text` as it is (no quotes, no escaping): for numbers' descriptions.
    func writeRaw(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// `text` as a JSON string: quotes, and `"` `\` and control characters escaped.
    func writeString(_ text: String) {
        write(UInt8(ascii: "\""))
        writeStringContent(text)
        write(UInt8(ascii: "\""))
    }

    /// What goes between a JSON string's quotes for `text` (`"` `\` and control characters
    /// escaped), for a caller that writes the quotes with the keys around it (`","id":"`).
    /// The bytes are borrowed through `utf8.withContiguousStorageIfAvailable`, which every
    /// native string allows without the retain and release of a `var` copy that `withUTF8`
    /// needs (a header writes ~8 strings).
    func writeStringContent(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ writeContent($0) }) == nil {
            var text = text
            text.withUTF8 { writeContent($0) }
        }
    }

    /// `utf8` between a JSON string's quotes: copied whole when there is nothing to escape
    /// (ids, times, names), else escaped. From 8 bytes on, each word is checked and stored in
    /// one pass, the last overlapping those before; a word to escape sends the text to
    /// `writeEscaped`, which writes it again from the start (nothing counted yet).
    @inline(__always) private func writeContent(_ utf8: UnsafeBufferPointer<UInt8>) {
        let length = utf8.count
        guard length >= 8, let base = utf8.baseAddress else {
            if Self.isPlain(utf8) { write(utf8) } else { writeEscaped(utf8) }
            return
        }
        reserve(length)
        let from = UnsafeRawPointer(base), to = UnsafeMutableRawPointer(storage + count)
        var index = 0
        while index + 8 < length {
            let word = from.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if ByteWords.hasSpecial(word) { return writeEscaped(utf8) }
            to.storeBytes(of: word, toByteOffset: index, as: UInt64.self)
            index += 8
        }
        let last = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        if ByteWords.hasSpecial(last) { return writeEscaped(utf8) }
        to.storeBytes(of: last, toByteOffset: length - 8, as: UInt64.self)
        count += length
    }

    /// `utf8` with `"`, `\` and control characters escaped.
    private func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            write(UnsafeBufferPointer(rebasing: utf8[start..<index]))
            start = index + 1
            write(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): write(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): write(UInt8(ascii: "\\"))
            case 0x0A: write(UInt8(ascii: "n"))
            case 0x0D: write(UInt8(ascii: "r"))
            case 0x09: write(UInt8(ascii: "t"))
            case 0x08: write(UInt8(ascii: "b"))
            case 0x0C: write(UInt8(ascii: "f"))
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                for escaped in [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]] { write(escaped) }
            }
        }
        write(UnsafeBufferPointer(rebasing: utf8[start...]))
    }

    /// Whether `utf8` (a short text: longer ones are checked as they are copied, in
    /// `writeContent`) holds no `"`, `\` or control character.
    @inline(__always) static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// `value` in decimal digits, straight into the buffer (counted first, then written from the last).
    func writeInteger<T: BinaryInteger>(_ value: T) {
        if value < 0 { write(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        reserve(digits)
        var index = count + digits
        repeat {
            index -= 1
            storage[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        count += digits
    }

    /// A finite double in its shortest exact form, without a needless `.0`. NaN and infinities
    /// are refused (as Foundation's `JSONEncoder` does): JSON has no spelling for them, and
    /// writing `null` would send a value no peer decodes as a number.
    func writeDouble(_ value: Double, at path: @autoclosure () -> CodingPath) throws {
        guard value.isFinite else { throw Self.nonFinite(value, at: path()) }
        if value == value.rounded(.towardZero) && abs(value) < 1e15 {
            if value == 0 && value.sign == .minus { write(UInt8(ascii: "-")) }
            writeInteger(Int64(value))
            return
        }
        writeRaw(value.description)
    }

    /// The error for a non-finite number at `path`.
    static func nonFinite(_ value: Double, at path: CodingPath) -> EncodingError {
        EncodingError.invalidValue(value, EncodingError.Context(
            codingPath: path.keys, debugDescription: "\(value) is not a finite number: JSON cannot carry it"))
    }
}
