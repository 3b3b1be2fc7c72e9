import Domain
import Wire

/// Gaps in the sequence numbers of the components (the bus and the services, each one process
/// numbering its messages 1, 2, 3, …): what a reader missed. Clients are not followed: many
/// gateways share the name `gateway`, each with its own numbers. Each process is known by its
/// name and its ids' prefix (`IDGenerator`): the two buses of a pair, both `bus`, each number
/// their own. A number lower than the last is a restarted process (or, on a pair, a copy that
/// came late through the slower bus), not a gap. Pure: envelopes in, missed counts out.
struct SequenceGaps {
    /// The components followed.
    static let followed = Set([MonsterBus.Service.bus] + MonsterBus.Service.all)
    /// The last number of each process, by its name and its ids' prefix.
    private var last: [String: UInt64] = [:]
    /// Messages missed so far, by sender.
    private(set) var missed: [String: UInt64] = [:]

    /// Notes `envelope`; returns how many of its sender's messages were missed just before it.
    mutating func observe(_ envelope: Envelope) -> UInt64? {
        guard Self.followed.contains(envelope.service) else { return nil }
        let process = envelope.service + " " + envelope.id[..<(envelope.id.lastIndex(of: "-") ?? envelope.id.endIndex)]
        defer { last[process] = envelope.seq }
        guard let previous = last[process], envelope.seq > previous + 1 else { return nil }
        let gap = envelope.seq - previous - 1
        missed[envelope.service, default: 0] += gap
        return gap
    }
}
