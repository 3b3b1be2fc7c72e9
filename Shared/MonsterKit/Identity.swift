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
    /// (one allocation; every envelope sent takes one).
    public func next() -> String {
        var value = counter.add(1, ordering: .relaxed).newValue
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let count = withUnsafeMutableBytes(of: &digits) { buffer in
            var count = 0
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
                count += 1
            } while value > 0
            return count
        }
        return String(unsafeUninitializedCapacity: 17 + count) { buffer in
            UnsafeMutableRawPointer(buffer.baseAddress!).storeBytes(of: prefix, as: (UInt64, UInt64).self)
            buffer[16] = UInt8(ascii: "-")
            withUnsafeBytes(of: &digits) { source in
                for index in 0..<count { buffer[17 + index] = source[24 - count + index] }
            }
            return 17 + count
        }
    }
}
