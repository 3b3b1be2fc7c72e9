import Synchronization

/// W3C Trace Context for one message: the trace it belongs to and its own span
/// (`traceparent` = `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`).
/// An action starts a trace; every message it causes carries the same trace id, a span of its
/// own, and its parent's span id in the envelope's `parentSpan`.
public struct TraceContext: Sendable, Equatable {
    /// The trace id: 32 lowercase hex digits, not all zero.
    public let traceId: String
    /// This message's span id: 16 lowercase hex digits, not all zero.
    public let spanId: String
    /// The trace flags byte as 2 hex digits (`01`: sampled).
    public let flags: String

    /// A context from its parts, unchecked (use `init?(traceparent:)` for text from the wire).
    public init(traceId: String, spanId: String, flags: String = "01") {
        self.traceId = traceId; self.spanId = spanId; self.flags = flags
    }

    /// The context in a `traceparent` header, or `nil` if it is not version `00` in the W3C form
    /// (lowercase hex, trace and span ids not all zero). Read in one pass over the 55 bytes
    /// `00-` + 32 + `-` + 16 + `-` + 2 (every message a service handles is read so).
    public init?(traceparent: String) {
        var text = traceparent
        let parts: (String, String, String)? = text.withUTF8 { bytes in
            guard Self.isTraceparent(bytes) else { return nil }
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[3..<35]), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[36..<52]), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[53..<55]), as: UTF8.self))
        }
        guard let parts else { return nil }
        self.init(traceId: parts.0, spanId: parts.1, flags: parts.2)
    }

    /// Whether `traceparent` is one `init?(traceparent:)` reads, checked without making its parts
    /// (every message a process receives is checked so).
    public static func isValid(traceparent: String) -> Bool {
        var text = traceparent
        return text.withUTF8 { isTraceparent($0) }
    }

    /// Whether `bytes` are a version `00` `traceparent` in the W3C form.
    private static func isTraceparent(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 55 && bytes[0] == UInt8(ascii: "0") && bytes[1] == UInt8(ascii: "0")
            && bytes[2] == UInt8(ascii: "-") && bytes[35] == UInt8(ascii: "-") && bytes[52] == UInt8(ascii: "-")
            && isHex(UnsafeBufferPointer(rebasing: bytes[3..<35])) && isHex(UnsafeBufferPointer(rebasing: bytes[36..<52]))
            && isHex(UnsafeBufferPointer(rebasing: bytes[53..<55]), zeroAllowed: true)
    }

    /// The headers of a message caused by one whose `traceparent` is `cause`: its own
    /// `traceparent` (a new span in `cause`'s trace, with its flags, or a new trace when `cause`
    /// holds none that is valid) and its `parentSpan` (`cause`'s span id, if any). The same as
    /// `child()` or `newTrace()` and their `traceparent`, written straight into one string each
    /// (every message a service sends is made so).
    public static func headers(causedBy cause: String?) -> (traceparent: String, parentSpan: String?) {
        if var cause {
            let headers: (String, String)? = cause.withUTF8 { parent in
                guard isTraceparent(parent) else { return nil }
                return (childTraceparent(of: parent), String(decoding: UnsafeBufferPointer(rebasing: parent[36..<52]), as: UTF8.self))
            }
            if let headers { return headers }
        }
        return (newTraceparent(span: nextRandom()), nil)
    }

    /// The trace a message is handled in: its own `traceparent`, when it holds a valid one, else a
    /// new trace started for it (a trace id and a span standing for its handling, as W3C has a
    /// receiver do), so that everything it causes belongs to that one trace, under that span.
    public struct Handling: Sendable {
        /// The handling's `traceparent` (checked: version `00` in the W3C form).
        public let traceparent: String
        /// Its span id: the `parentSpan` of everything caused in it (one string, shared).
        public let span: String

        /// The headers of a message caused in this handling: a new span of its trace, with its
        /// flags, and the handling's span as its parent (`traceparent` not checked again).
        public func child() -> (traceparent: String, parentSpan: String?) {
            var parent = traceparent
            let traceparent = parent.withUTF8 { TraceContext.childTraceparent(of: $0) }
            return (traceparent, span)
        }
    }

    /// The trace a message whose `traceparent` is `traceparent` is handled in (`Handling`).
    public static func handling(_ traceparent: String?) -> Handling {
        if var traceparent, let span = traceparent.withUTF8({ isTraceparent($0) ? String(decoding: UnsafeBufferPointer(rebasing: $0[36..<52]), as: UTF8.self) : nil }) {
            return Handling(traceparent: traceparent, span: span)
        }
        let span = nextRandom()
        return Handling(traceparent: newTraceparent(span: span), span: hex(span))
    }

    /// A new span's `traceparent` in the trace of `parent` (a checked one), with its flags.
    private static func childTraceparent(of parent: UnsafeBufferPointer<UInt8>) -> String {
        precondition(parent.count == length, "a traceparent is 55 bytes")
        let span = nextRandom()
        return String(unsafeUninitializedCapacity: length) { buffer in
            // The parent's 55 bytes at once (trace id, dashes, flags), then the new span over its.
            UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: parent.baseAddress!, byteCount: length)
            writeHex(span, into: buffer, at: 36)
            return length
        }
    }

    /// A `traceparent`'s length in bytes: the strings written in place are allocated, filled and
    /// counted with this one number.
    private static let length = 55

    /// The `traceparent` of a new trace whose first span is `span`, sampled, written straight into one string.
    private static func newTraceparent(span: UInt64) -> String {
        let (high, low) = (nextRandom(), nextRandom())
        return String(unsafeUninitializedCapacity: length) { buffer in
            buffer[0] = UInt8(ascii: "0"); buffer[1] = UInt8(ascii: "0"); buffer[2] = UInt8(ascii: "-")
            writeHex(high, into: buffer, at: 3)
            writeHex(low, into: buffer, at: 19)
            buffer[35] = UInt8(ascii: "-")
            writeHex(span, into: buffer, at: 36)
            buffer[52] = UInt8(ascii: "-"); buffer[53] = UInt8(ascii: "0"); buffer[54] = UInt8(ascii: "1")
            return length
        }
    }

    /// The `traceparent` header of this context.
    public var traceparent: String {
        var text = "00-"
        text.reserveCapacity(55)
        text += traceId; text += "-"; text += spanId; text += "-"; text += flags
        return text
    }

    /// A new trace: a random trace id and a first span, sampled. The ids come from the same
    /// per-process random sequence as span ids (distinct within a process, random-looking
    /// across processes) rather than a system random call per id: a service starts a trace
    /// for every message it answers from a client that does not trace.
    public static func newTrace() -> TraceContext {
        TraceContext(traceId: Self.hex(nextRandom()) + Self.hex(nextRandom()), spanId: Self.hex(nextRandom()))
    }

    /// A new span in the same trace, for a message caused by the one this context belongs to.
    public func child() -> TraceContext {
        TraceContext(traceId: traceId, spanId: Self.nextSpanId(), flags: flags)
    }

    /// Span ids: a per-process random start stepped by a constant and mixed (SplitMix64's
    /// finaliser, a bijection), so they never repeat within a process and look random across
    /// processes — at the cost of an atomic add rather than a system random call per message.
    private static let spanSequence = Atomic<UInt64>(UInt64.random(in: .min ... .max))

    private static func nextSpanId() -> String { hex(nextRandom()) }

    /// The next value of the sequence, never 0.
    private static func nextRandom() -> UInt64 {
        var z = spanSequence.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return z == 0 ? 1 : z
    }

    /// `value` as 16 lowercase hex digits.
    static func hex(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            writeHex(value, into: buffer, at: 0)
            return 16
        }
    }

    /// `value` as 16 lowercase hex digits in `buffer` from `start` (which has room for them):
    /// 8 digits at a time.
    private static func writeHex(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        let target = UnsafeMutableRawPointer(buffer.baseAddress! + start)
        target.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: value >> 32)), as: UInt64.self)
        target.storeBytes(of: hexDigits(UInt32(truncatingIfNeeded: value)), toByteOffset: 8, as: UInt64.self)
    }

    /// The 8 lowercase hex digits of `value`, most significant first in memory: its nibbles
    /// spread one per byte, then each turned into `0`–`9` or `a`–`f` (no carry crosses a byte).
    private static func hexDigits(_ value: UInt32) -> UInt64 {
        var nibbles = UInt64(value)
        nibbles = (nibbles | (nibbles << 16)) & 0x0000_FFFF_0000_FFFF
        nibbles = (nibbles | (nibbles << 8)) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | (nibbles << 4)) & 0x0F0F_0F0F_0F0F_0F0F
        // 0x10 in each byte whose nibble is 10 or more, then 0x01: such a byte gets `'a' - '0' - 10` more.
        let letters = ((nibbles &+ 0x0606_0606_0606_0606) & 0x1010_1010_1010_1010) >> 4
        return (nibbles &+ 0x3030_3030_3030_3030 &+ letters &* 0x27).bigEndian
    }

    /// Whether `bytes` are lowercase hex digits, not all zero unless `zeroAllowed`.
    private static func isHex(_ bytes: UnsafeBufferPointer<UInt8>, zeroAllowed: Bool = false) -> Bool {
        var allZero = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0"): continue
            case UInt8(ascii: "1")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): allZero = false
            default: return false
            }
        }
        return zeroAllowed || !allZero
    }

    /// Whether `text` is a span id: 16 lowercase hex digits, not all zero.
    public static func isSpanId(_ text: String) -> Bool { isHex(Substring(text), count: 16) }

    private static func isHex(_ text: Substring, count: Int) -> Bool {
        guard text.utf8.count == count else { return false }
        var allZero = true
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0"): continue
            case UInt8(ascii: "1")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): allZero = false
            default: return false
            }
        }
        // Flags may be 00; ids may not be all zero.
        return count == 2 || !allZero
    }
}
