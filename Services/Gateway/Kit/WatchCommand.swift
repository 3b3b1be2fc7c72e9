import BusKit
import MonsterKit

/// `gateway watch`: tails the bus, filtered by device and type prefix.
enum WatchCommand {
    /// Bookkeeping that floods a human reader: shown only when a `--type` asks for it.
    static let quietPrefixes = ["sys.", "ack"]

    static func run(_ invocation: Invocation, types: [String], count: Int?, session: GatewaySession) throws -> Int32 {
        try session.ensureAnswering([MonsterBus.Service.bus], deadline: Timestamp.monotonic() + invocation.timeout)
        let device = invocation.deviceGiven ? invocation.device : nil
        Log.standardError("watching the bus\(device.map { " for device \($0)" } ?? "")\(types.isEmpty ? "" : " (types \(types.joined(separator: ", ")))"); Ctrl-C stops\n")
        let waker = SignalWaker()
        var printed = 0
        var rosterDatabase: String?
        try session.client.listen(stop: waker.readDescriptor) { envelope in
            if let id = databaseId(of: envelope) {
                if let known = rosterDatabase, known != id {
                    Log.standardError("note: the roster database changed from \(known) to \(id) (the roster was reset or started on another file); its revisions start again and replicas re-synchronise from a snapshot\n")
                }
                rosterDatabase = id
            }
            guard shows(envelope, device: device, types: types, json: session.output.json) else { return true }
            session.output.print(envelope, describingRequests: true)
            printed += 1
            return count.map { printed < $0 } ?? true
        }
        return ExitStatus.ok
    }

    /// The roster database id a `roster.*` message carries.
    static func databaseId(of envelope: Envelope) -> String? {
        switch envelope.body {
        case .snapshot(let snapshot): snapshot.databaseId
        case .monsterUpdated(let update): update.databaseId
        case .selection(let selection): selection.databaseId
        case .backup(let backup): backup.databaseId
        default: nil
        }
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
