// `bench --latency-cost`: what work on a round trip's path costs in its p50 (~10 s), to tell
// which `rtt_p50_ratio` an instruction count allows. The raw echo answering like the product
// (two messages, as large as the decision and the ack, timed until the first like the product
// until its decision) is asked to run `Spin` for a known number of instructions before it
// answers; its p50 at each amount, alternating every 25 round trips with the plain raw echo (the
// ratios' base) and the product, gives µs per 10,000 instructions on the path (a least-squares
// line), and so the instructions the product's p50 stands for.

import ZeroMQ

enum LatencyCost {
    /// Extra instructions asked of the echo, one series each.
    static let amounts = [0, 25_000, 50_000, 100_000, 150_000]

    /// Runs `blocks` rounds of 25 round trips per series after `warmUp` round trips of each;
    /// returns the report.
    static func run(blocks: Int = 80, warmUp: Int = 300) throws -> String {
        try SideBySide.run(warmUp: warmUp) { side in try run(side, blocks: blocks, warmUp: warmUp) }
    }

    private static func run(_ side: SideBySide, blocks: Int, warmUp: Int) throws -> String {
        let (stack, product, raw, shape) = (side.stack, side.product, side.raw, side.shape)
        let iterations = amounts.map { Int(Double($0) / Spin.instructionsPerIteration) }
        for _ in 0..<warmUp {
            _ = try raw.roundTrip()
            for spin in iterations { _ = try raw.roundTrip(shape: shape, spin: spin, firstAnswer: true) }
        }

        var plain: [Double] = []
        var productTimes: [Double] = []
        var spun = Array(repeating: [Double](), count: amounts.count)
        for _ in 0..<blocks {
            for _ in 0..<25 { if let seconds = try raw.roundTrip() { plain.append(seconds) } }
            for _ in 0..<25 { if let seconds = try product.roundTrip(device: "bench-ipad") { productTimes.append(seconds) } }
            for (index, spin) in iterations.enumerated() {
                for _ in 0..<25 { if let seconds = try raw.roundTrip(shape: shape, spin: spin, firstAnswer: true) { spun[index].append(seconds) } }
            }
        }
        try stack.checkAlive()

        let base = LatencySummary(plain).p50 * 1e6
        let productP50 = LatencySummary(productTimes).p50 * 1e6
        let p50s = spun.map { LatencySummary($0).p50 * 1e6 }
        let line = LeastSquares(x: amounts.map(Double.init), y: p50s)
        var lines = [
            "plain raw echo (the ratios' base): p50 \(format(base, 1)) µs",
            "product (add tap): p50 \(format(productP50, 1)) µs = \(format(productP50 / base, 3))× raw",
        ]
        for (amount, p50) in zip(amounts, p50s) {
            lines.append("raw echo 1→2 (first answer) + \(amount) instructions: p50 \(format(p50, 1)) µs = \(format(p50 / base, 3))× raw")
        }
        lines.append("slope: \(format(line.slope * 10_000, 2)) µs per 10,000 instructions on the path (intercept \(format(line.intercept, 1)) µs)")
        if line.slope > 0 {
            lines.append("the product's p50 = the two-answer echo's with \(format((productP50 - line.intercept) / line.slope, 0)) more instructions on the path")
            lines.append("rtt_p50_ratio 1.15 allows \(format((1.15 * base - line.intercept) / line.slope, 0)) instructions on the path beyond the two-answer echo's")
        }
        return lines.joined(separator: "\n")
    }
}

/// The line y = intercept + slope · x closest to the points (least squares).
struct LeastSquares {
    let slope, intercept: Double

    /// The line through `x` and `y` (as many of each, at least two distinct x).
    init(x: [Double], y: [Double]) {
        let n = Double(x.count)
        let meanX = x.reduce(0, +) / n, meanY = y.reduce(0, +) / n
        let covariance = zip(x, y).reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
        let variance = x.reduce(0) { $0 + ($1 - meanX) * ($1 - meanX) }
        slope = variance > 0 ? covariance / variance : 0
        intercept = meanY - slope * meanX
    }
}
