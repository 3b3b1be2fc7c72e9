// Percentiles, medians and the results of the measurements.

/// Latency samples in seconds, summarised.
struct LatencySummary {
    let count: Int
    let p50, p90, p99, mean, max: Double

    /// The summary of `samples` (seconds); all zero when there are none.
    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        count = sorted.count
        p50 = percentile(sorted, 50)
        p90 = percentile(sorted, 90)
        p99 = percentile(sorted, 99)
        mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        max = sorted.last ?? 0
    }
}

/// The `p`th percentile (nearest rank) of `sorted`, an ascending array; 0 when it is empty.
func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count - 1, max(0, rank - 1))]
}

/// The median of `values`; 0 when there are none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// One throughput measurement: how many went through in how long, and what went missing.
struct Throughput {
    /// Messages (raw) or actions (product) sent.
    var sent = 0
    /// Received (raw one-way), answered (raw echo) or acknowledged exactly once (product).
    var completed = 0
    /// Actions for which the decision (`presentation.*`) arrived (product only).
    var decided = 0
    /// Actions refused with an `error` (product only; they are acknowledged but not decided).
    var refused = 0
    /// Acknowledgements or answers received more than once.
    var duplicates = 0
    /// From the first send to the last completion.
    var seconds = 0.0
    /// Round-trip times under load (product: send to ack), in seconds.
    var latencies: [Double] = []

    /// Sent but never completed.
    var lost: Int { sent - completed }
    /// Completions per second.
    var rate: Double { seconds > 0 ? Double(completed) / seconds : 0 }
    /// Microseconds of wall time per completion.
    var microsecondsEach: Double { completed > 0 ? seconds * 1e6 / Double(completed) : 0 }
}
