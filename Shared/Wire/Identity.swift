import Synchronization

/// Makes message ids unique across processes: a random 64-bit prefix per process, then a counter.
public final class IDGenerator: Sendable {
    /// The prefix's 16 hex digits, as the bytes of two words (copied into each id at once).
    private let prefix: (UInt64, UInt64)
    private let counter = Atomic<UInt64>(0)

    /// A generator with a fresh random prefix.
    public init() {
        let random = UInt64.random(in: .min ... .max)
        let hex = String(random, radix: 16)
        var digits = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &digits) { bytes in
            for (index, byte) in (String(repeating: "0", count: 16 - hex.count) + hex).utf8.enumerated() { bytes[index] = byte }
        }
        prefix = digits
    }

    /// The next id, e.g. `3f9a0c2b7d41e855-17`: written straight into the string's storage
    /// (one allocation; every envelope sent takes one): the prefix's two words, the `-`, then the
    /// counter's digits from the last.
    public func next() -> String {
        let value = counter.add(1, ordering: .relaxed).newValue
        let count = Self.digitCount(value)
        let prefix = self.prefix
        return String(unsafeUninitializedCapacity: 17 + count) { buffer in
            let start = buffer.baseAddress!
            UnsafeMutableRawPointer(start).storeBytes(of: prefix, as: (UInt64, UInt64).self)
            start[16] = UInt8(ascii: "-")
            var rest = value
            var at = 16 + count
            repeat {
                start[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                at -= 1
            } while rest > 0
            return 17 + count
        }
    }

    /// How many decimal digits `value` has (1 for 0).
    static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            count += 1
        }
        return count
    }
}
