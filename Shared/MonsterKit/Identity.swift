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

    /// The next id, e.g. `3f9a0c2b7d41e855-17`.
    public func next() -> String {
        let value = counter.add(1, ordering: .relaxed).newValue
        return prefix + "-" + String(value)
    }
}
