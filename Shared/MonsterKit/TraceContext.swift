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
    /// (lowercase hex, trace and span ids not all zero).
    public init?(traceparent: String) {
        let parts = traceparent.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "00",
              Self.isHex(parts[1], count: 32), Self.isHex(parts[2], count: 16), Self.isHex(parts[3], count: 2)
        else { return nil }
        self.init(traceId: String(parts[1]), spanId: String(parts[2]), flags: String(parts[3]))
    }

    /// The `traceparent` header of this context.
    public var traceparent: String { "00-\(traceId)-\(spanId)-\(flags)" }

    /// A new trace: a random trace id and a first span, sampled.
    public static func newTrace() -> TraceContext {
        TraceContext(traceId: randomHex(16), spanId: randomHex(8))
    }

    /// A new span in the same trace, for a message caused by the one this context belongs to.
    public func child() -> TraceContext {
        TraceContext(traceId: traceId, spanId: Self.nextSpanId(), flags: flags)
    }

    /// Span ids: a per-process random start stepped by a constant and mixed (SplitMix64's
    /// finaliser, a bijection), so they never repeat within a process and look random across
    /// processes — at the cost of an atomic add rather than a system random call per message.
    private static let spanSequence = Atomic<UInt64>(UInt64.random(in: .min ... .max))

    private static func nextSpanId() -> String {
        var z = spanSequence.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        if z == 0 { z = 1 }
        let hex = String(z, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
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

    /// `bytes` random bytes as lowercase hex, never all zero.
    private static func randomHex(_ bytes: Int) -> String {
        var text = ""
        repeat {
            text = ""
            for _ in 0..<(bytes / 8) {
                let hex = String(UInt64.random(in: .min ... .max), radix: 16)
                text += String(repeating: "0", count: 16 - hex.count) + hex
            }
        } while text.utf8.allSatisfy { $0 == UInt8(ascii: "0") }
        return text
    }
}
