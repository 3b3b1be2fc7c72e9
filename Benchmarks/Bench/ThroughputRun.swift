// `bench --throughput-only`: the throughput row alone (~30 s), to find what bounds it — the raw
// echo answering with two messages against the product's sustained actions at 1,000 devices,
// alternating round after round, with the CPU time of every process of the stack (the services
// that only read what passes included) and what the bus forwarded per action.

import Domain
import Glibc
import ProcessSupport
import Wire
import ZeroMQ
import ZeroMQTransport

enum ThroughputRun {
    /// Runs `rounds` rounds of `seconds` per side with `window` in flight; returns the report.
    static func run(rounds: Int = 3, seconds: Double = 2, window: Int = 128) throws -> String {
        try SideBySide.run(warmUp: 50) { side in try run(side, rounds: rounds, seconds: seconds, window: window) }
    }

    private static func run(_ side: SideBySide, rounds: Int, seconds: Double, window: Int) throws -> String {
        let (stack, context, product, raw, shape) = (side.stack, side.context, side.product, side.raw, side.shape)
        let devices = (0..<1_000).map { "bench-\($0)" }
        _ = try product.sustained(devices: devices, window: window, length: .oncePerDevice)
        _ = try product.sustained(devices: devices, window: window, length: .seconds(0.5))
        _ = try raw.windowedEcho(seconds: 0.5, window: window, shape: shape)
        let status = try BusStatus(context: context, config: stack.config)
        defer { status.close() }
        let processes = [("bench", getpid())] + stack.processes.map { ($0.name, $0.pid) }
        var lines: [String] = []
        var ratios: [Double] = []
        for round in 0..<rounds {
            var meter = CPUMeter(processes)
            let echo = try raw.windowedEcho(seconds: seconds, window: window, shape: shape)
            let echoCPU = meter.used()
            meter = CPUMeter(processes)
            let busBefore = try status.counters()
            let run = try product.sustained(devices: devices, window: window, length: .seconds(seconds))
            let productCPU = meter.used()
            let busAfter = try status.counters()
            ratios.append(run.rate / max(1, echo.rate))
            lines.append("round \(round + 1): raw echo 1→2 \(format(echo.rate, 0)) rt/s, product \(format(run.rate, 0)) actions/s (lost \(run.lost)): \(format(ratios.last!, 3))×")
            lines.append("  CPU µs each, raw:     " + cpuLine(echoCPU, echo.completed))
            lines.append("  CPU µs each, product: " + cpuLine(productCPU, run.completed))
            if let before = busBefore, let after = busAfter, run.completed > 0 {
                let per = { (name: String) in format(Double((after[name] ?? 0) &- (before[name] ?? 0)) / Double(run.completed), 2) }
                lines.append("  bus per action (heartbeat counters, ±1 s): in \(per("messagesIn")), out \(per("messagesOut"))")
            }
        }
        lines.append("median ratio \(format(median(ratios), 3))")
        return lines.joined(separator: "\n")
    }

    /// CPU µs per completion of each process that used any, and their sum.
    private static func cpuLine(_ used: [String: Double], _ completed: Int) -> String {
        guard completed > 0 else { return "nothing completed" }
        let each = used.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value * 1e6 / Double(completed)) }
        return each.map { "\($0.0) \(format($0.1, 1))" }.joined(separator: ", ") + "  Σ \(format(each.reduce(0) { $0 + $1.1 }, 1))"
    }
}

/// Asks the bus for its counters (`sys.status.request`): what it has forwarded so far.
final class BusStatus {
    private let bus: BusConnection

    /// Connects to the bus of `config`, subscribed to its status reports.
    init(context: ZMQContext, config: BusConfig) throws {
        bus = try BusConnection(
            context: context, config: config, service: "bench", subscriptions: [MessageType.statusReport.rawValue], lingerMilliseconds: 0)
    }

    /// Closes the sockets.
    func close() { bus.close() }

    /// The bus's counters now; nil when it does not answer within `timeout` s (asking again
    /// meanwhile: the first requests may go before the connection is up).
    func counters(timeout: Double = 5) throws -> [String: UInt64]? {
        let deadline = Timestamp.monotonic() + timeout
        while Timestamp.monotonic() < deadline {
            let asked = try bus.publish(.statusRequest(StatusRequest()))
            let again = min(deadline, Timestamp.monotonic() + 0.2)
            while let frames = try bus.receiveFrames(timeoutMilliseconds: max(1, Int((again - Timestamp.monotonic()) * 1000))) {
                if let envelope = try? bus.codec.decode(frames: frames), envelope.correlationId == asked.id,
                   case .statusReport(let report) = envelope.body {
                    return report.bus.counters
                }
            }
        }
        return nil
    }
}
