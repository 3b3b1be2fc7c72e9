import MonsterKit

/// Knows, without sleeping, when everything an action caused has arrived. Every service
/// acknowledges each message it handles, listing what it published and what it passed on to
/// another service; the action is complete when every expected acknowledgement and every
/// message they list has been received.
public struct ActionTracker: Sendable {
    /// The action's id: everything it causes carries it as `correlationId`.
    public let actionId: String
    /// Messages the action caused, acknowledgements included, in arrival order.
    public private(set) var received: [Envelope] = []
    private var receivedIds: Set<String> = []
    private var pendingAcks: Set<Forward>
    private var earlyAcks: [Forward: Ack] = [:]
    private var missingEmitted: Set<String> = []

    /// A tracker for `action`, expecting acknowledgements from `firstHop` (the services that
    /// handle it directly).
    public init(actionId: String, firstHop: [String]) {
        self.actionId = actionId
        pendingAcks = Set(firstHop.map { Forward(id: actionId, service: $0) })
    }

    /// Takes in one message from the bus; returns whether the action caused it.
    @discardableResult
    public mutating func observe(_ envelope: Envelope) -> Bool {
        guard envelope.correlationId == actionId, envelope.id != actionId, !receivedIds.contains(envelope.id) else {
            return false
        }
        received.append(envelope)
        receivedIds.insert(envelope.id)
        missingEmitted.remove(envelope.id)
        if case .ack(let ack) = envelope.body {
            let key = Forward(id: ack.handledId, service: envelope.service)
            if pendingAcks.remove(key) != nil {
                take(ack)
            } else {
                earlyAcks[key] = ack
            }
        }
        return true
    }

    private mutating func take(_ ack: Ack) {
        // A repeat's acknowledgement lists what the first delivery caused, which is not sent again.
        guard !ack.duplicate else { return }
        for id in ack.emitted where !receivedIds.contains(id) { missingEmitted.insert(id) }
        for forward in ack.forwarded {
            if let early = earlyAcks.removeValue(forKey: forward) {
                take(early)
            } else {
                pendingAcks.insert(forward)
            }
        }
    }

    /// True once every acknowledgement and every message they list has arrived.
    public var isComplete: Bool { pendingAcks.isEmpty && missingEmitted.isEmpty }

    /// The `error` messages among those received.
    public var errors: [(service: String, error: ErrorBody)] {
        received.compactMap { envelope in
            if case .error(let error) = envelope.body { return (envelope.service, error) }
            return nil
        }
    }

    /// What is still awaited, for a person: e.g. "an acknowledgement from input-handling".
    public var awaiting: String {
        var parts = pendingAcks.map(\.service).sorted().map { "an acknowledgement from \($0)" }
        if !missingEmitted.isEmpty { parts.append("\(missingEmitted.count) message(s) the services say they published") }
        return parts.joined(separator: " and ")
    }
}
