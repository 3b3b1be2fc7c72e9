import Synchronization

/// Makes message ids unique across processes: a random 64-bit prefix per process, then a counter.
public final class IDGenerator: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    /// A generator with a fresh random prefix.
    public init() {
        let random = UInt64.random(in: .min ... .max)
        let hex = String(random, radix: 16)
        prefix = String(repeating: "0", count: 16 - hex.count) + hex
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
        var prefix = prefix
        return prefix.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + 1 + count) { buffer in
                _ = buffer.initialize(from: head)
                buffer[head.count] = UInt8(ascii: "-")
                withUnsafeBytes(of: &digits) { source in
                    for index in 0..<count { buffer[head.count + 1 + index] = source[24 - count + index] }
                }
                return head.count + 1 + count
            }
        }
    }
}
