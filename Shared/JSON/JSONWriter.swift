import Glibc
import ThreadOwnership

/// Appends JSON text to a byte buffer: the one place where strings are escaped and numbers are
/// spelled. A sender keeps one and writes every message in it, so its buffer is reused rather
/// than allocated for each.
///
/// A writer is used by one thread at a time: its state is `ThreadOwned` (a class's `var`s would
/// be checked for exclusive access at run time, at every byte written).
public final class JSONWriter {
    @usableFromInline struct State {
        @usableFromInline var storage: UnsafeMutablePointer<UInt8>
        @usableFromInline var capacity: Int
        @usableFromInline var count: Int
    }

    @usableFromInline let state: ThreadOwned<State>

    /// An empty writer with room for `capacity` bytes (it grows when it needs more).
    public init(capacity: Int = 1024) {
        let capacity = max(capacity, 16)
        state = ThreadOwned(State(storage: .allocate(capacity: capacity), capacity: capacity, count: 0))
    }

    deinit {
        state.value.storage.deallocate()
    }

    /// How many bytes have been written.
    public var count: Int { state.value.count }

    /// What was written, as an array.
    public var bytes: [UInt8] { withBytes { Array($0) } }

    /// Calls `body` with the bytes written so far (valid only during the call).
    public func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try body(UnsafeBufferPointer(start: state.value.storage, count: state.value.count))
    }

    /// Forgets what was written, keeping the buffer for the next text.
    public func reset() { state.value.count = 0 }

    /// Room for `more` bytes after those written.
    @inlinable @inline(__always) func reserve(_ more: Int) {
        if state.value.count + more > state.value.capacity { grow(state.value.count + more) }
    }

    @usableFromInline func grow(_ needed: Int) {
        let larger = max(needed, state.value.capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: state.value.storage, count: state.value.count)
        state.value.storage.deallocate()
        state.value.storage = moved
        state.value.capacity = larger
    }

    // MARK: Raw text

    /// One byte as it is.
    @inlinable @inline(__always) public func write(_ byte: UInt8) {
        reserve(1)
        state.value.storage[state.value.count] = byte
        state.value.count += 1
    }

    /// `raw` bytes as they are.
    @inlinable @inline(__always) public func write(_ raw: UnsafeBufferPointer<UInt8>) {
        guard let base = raw.baseAddress, raw.count > 0 else { return }
        reserve(raw.count)
        Self.copy(base, raw.count, to: state.value.storage + state.value.count)
        state.value.count += raw.count
    }

    /// A literal as it is: punctuation, keys.
    @inlinable @inline(__always) public func write(_ literal: StaticString) {
        write(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Copies `length` bytes (more than 0) from `source` to `target`: up to 32 (keys, ids, times:
    /// most of what is written) as words in place, the first and the last overlapping, rather than
    /// a byte-by-byte tail; more through `memmove` (whose call costs more than a short copy).
    @inlinable @inline(__always) static func copy(_ source: UnsafePointer<UInt8>, _ length: Int, to target: UnsafeMutablePointer<UInt8>) {
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

    // MARK: Values

    /// An object member's key and colon, after a comma unless it is the object's `first`
    /// member: `,"name":`. The name is a key the project declares (plain ASCII, nothing to escape).
    @inlinable @inline(__always) public func writeKey(_ name: StaticString, first: Bool) {
        let length = name.utf8CodeUnitCount
        reserve(length + 4)
        let target = state.value.storage + state.value.count
        var at = 0
        if !first { target[0] = UInt8(ascii: ","); at = 1 }
        target[at] = UInt8(ascii: "\"")
        Self.copy(name.utf8Start, length, to: target + at + 1)
        target[at + 1 + length] = UInt8(ascii: "\"")
        target[at + 2 + length] = UInt8(ascii: ":")
        state.value.count += at + 3 + length
    }

    /// `text` as a JSON string: quotes, and `"`, `\` and control characters escaped.
    @inlinable @inline(__always) public func writeString(_ text: String) {
        write(UInt8(ascii: "\""))
        writeStringContent(text)
        write(UInt8(ascii: "\""))
    }

    /// What goes between a JSON string's quotes for `text`. The bytes are borrowed through
    /// `utf8.withContiguousStorageIfAvailable`, which a native string allows without copying it.
    @inlinable @inline(__always) public func writeStringContent(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ writeContent($0) }) == nil {
            var text = text
            text.withUTF8 { writeContent($0) }
        }
    }

    /// `utf8` between a JSON string's quotes: copied whole when there is nothing to escape (ids,
    /// times, names), else escaped. From 8 bytes on, each word is checked and stored in one pass,
    /// the last overlapping those before; a word to escape sends the text to `writeEscaped`,
    /// which writes it again from the start (nothing counted yet).
    @inlinable @inline(__always) func writeContent(_ utf8: UnsafeBufferPointer<UInt8>) {
        let length = utf8.count
        guard length >= 8, let base = utf8.baseAddress else {
            if utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) { write(utf8) } else { writeEscaped(utf8) }
            return
        }
        reserve(length)
        let from = UnsafeRawPointer(base), to = UnsafeMutableRawPointer(state.value.storage + state.value.count)
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
        state.value.count += length
    }

    /// `utf8` with `"`, `\` and control characters escaped.
    @usableFromInline func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            write(UnsafeBufferPointer(rebasing: utf8[start..<index]))
            start = index + 1
            switch byte {
            case UInt8(ascii: "\""): write("\\\"")
            case UInt8(ascii: "\\"): write("\\\\")
            case 0x0A: write("\\n")
            case 0x0D: write("\\r")
            case 0x09: write("\\t")
            case 0x08: write("\\b")
            case 0x0C: write("\\f")
            default:
                write("\\u00")
                write(Self.hexDigits[Int(byte >> 4)])
                write(Self.hexDigits[Int(byte & 0xF)])
            }
        }
        write(UnsafeBufferPointer(rebasing: utf8[start...]))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// `true` or `false`.
    @inlinable @inline(__always) public func writeBool(_ value: Bool) {
        if value { write("true") } else { write("false") }
    }

    /// `null`.
    public func writeNull() { write("null") }

    /// `value` in decimal digits, straight into the buffer (counted first, then written from the last).
    @inlinable @inline(__always) public func writeInteger<T: BinaryInteger>(_ value: T) {
        if value < 0 { write(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        reserve(digits)
        var index = state.value.count + digits
        repeat {
            index -= 1
            state.value.storage[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        state.value.count += digits
    }

    /// A finite double in its shortest exact form, without a needless `.0`. NaN and infinities are
    /// refused: JSON has no spelling for them, and `null` would be a value no peer reads as a number.
    @inlinable @inline(__always) public func writeDouble(_ value: Double) throws(JSONError) {
        guard value.isFinite else { throw JSONError(.nonFinite, "\(value) is not a finite number: JSON cannot carry it") }
        if value == value.rounded(.towardZero) && abs(value) < 1e15 {
            if value == 0 && value.sign == .minus { write(UInt8(ascii: "-")) }
            writeInteger(Int64(value))
            return
        }
        var text = value.description
        text.withUTF8 { write($0) }
    }

    /// `text` as one JSON string literal, for a page or a document built as text. `forPages`
    /// also escapes `<` and the line separators U+2028 and U+2029, so that the literal is safe
    /// inside an HTML `<script>` and in JavaScript.
    public static func quoted(_ text: String, forPages: Bool = false) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            default:
                let escaped = scalar.value < 0x20 || scalar.value == 0x7F
                    || (forPages && (scalar == "<" || scalar.value == 0x2028 || scalar.value == 0x2029))
                if escaped {
                    let hex = String(scalar.value, radix: 16)
                    quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    quoted.unicodeScalars.append(scalar)
                }
            }
        }
        return quoted + "\""
    }
}
