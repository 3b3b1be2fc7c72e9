/// A cumulative latency histogram with Prometheus's conventional shape: counts per upper bound
/// (`le`), a sum and a count.
public struct LatencyHistogram: Sendable, Equatable {
    /// Upper bounds in seconds, from 0.5 ms to 2.5 s; `+Inf` is implied.
    public static let bounds: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    /// Observations at or below each bound, in the order of `bounds`.
    public private(set) var buckets = [UInt64](repeating: 0, count: LatencyHistogram.bounds.count)
    /// Every observation, `+Inf` included.
    public private(set) var count: UInt64 = 0
    /// The sum of the observations, in seconds.
    public private(set) var sum: Double = 0

    /// An empty histogram.
    public init() {}

    /// Adds one latency of `seconds`.
    public mutating func observe(_ seconds: Double) {
        let value = max(0, seconds)
        for (index, bound) in Self.bounds.enumerated() where value <= bound { buckets[index] += 1 }
        count += 1
        sum += value
    }
}
