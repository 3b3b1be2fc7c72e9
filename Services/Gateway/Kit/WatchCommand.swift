import BusKit
import MonsterKit

/// `gateway watch`: tails the bus, filtered by device and type prefix, and says on standard
/// error when it missed messages (a gap in a component's sequence numbers).
enum WatchCommand {
    /// Bookkeeping that floods a human reader: shown only when a `--type` asks for it.
    static let quietPrefixes = ["sys.", "ack"]

    static func run(_ invocation: Invocation, types: [String], count: Int?, session: GatewaySession) throws -> Int32 {
        try session.ensureAnswering([MonsterBus.Service.bus], deadline: Timestamp.monotonic() + invocation.timeout)
        let device = invocation.deviceGiven ? invocation.device : nil
        Log.standardError("watching the bus\(device.map { " for device \($0)" } ?? "")\(types.isEmpty ? "" : " (types \(types.joined(separator: ", ")))"); Ctrl-C stops\n")
        let waker = SignalWaker()
        var printed = 0
        var gaps = SequenceGaps()
        try session.client.listen(stop: waker.readDescriptor) { envelope in
            if let missed = gaps.observe(envelope) {
                // A slow reader: the bus dropped what overflowed this watcher's queue.
                Log.standardError("gateway: missed \(missed) message(s) from \(envelope.service) before its seq \(envelope.seq) (this watcher fell behind and the bus dropped them; \(gaps.missed[envelope.service] ?? 0) in all)\n")
                // Told to the bus, which counts what slow readers lost (`gateway status`).
                try? session.client.notify(.lossReport(LossReport(missed: [envelope.service: missed])))
            }
            guard shows(envelope, device: device, types: types, json: session.output.json) else { return true }
            session.output.print(envelope, describingRequests: true)
            printed += 1
            return count.map { printed < $0 } ?? true
        }
        return ExitStatus.ok
    }

    /// Whether `envelope` passes the filters.
    static func shows(_ envelope: Envelope, device: String?, types: [String], json: Bool) -> Bool {
        let type = envelope.type.rawValue
        if let device, envelope.device != device { return false }
        if types.isEmpty {
            return !quietPrefixes.contains { type.hasPrefix($0) }
        }
        return types.contains { type.hasPrefix($0) }
    }
}
