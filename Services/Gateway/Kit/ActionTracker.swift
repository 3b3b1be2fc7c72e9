import Domain
import Wire

/// Knows, without sleeping, when everything an action caused has arrived. Every service
/// acknowledges each message it handles, listing what it published and what it passed on to
/// another service; a message another service also reads (`Routing.readers`: input-handling
/// reads `layout.changed`) awaits that service's acknowledgement too, once an acknowledgement
/// lists it: a decision whose acknowledgement never came (its owner died before its standby held
/// it, and the heir decided again, with new messages) leaves nothing to wait for. The action is
/// complete when every expected acknowledgement and every message they list has been received (a
/// message passed on to another service, through that service's acknowledgement). Of a service's
/// acknowledgements of one message, the first counts until a later one lists other messages and
/// takes its place: a standby may list ids that never come, the owner's answer to a repeat the
/// right ones.
public struct ActionTracker: Sendable {
    /// The action's id: everything it causes carries it as `correlationId`.
    public let actionId: String
    /// The services that handle the action directly, in the order their answers print.
    private let firstHop: [String]
    /// Messages the action caused, acknowledgements included, in arrival order.
    public private(set) var received: [Envelope] = []
    private var receivedIds: Set<String> = []
    private var pendingAcks: Set<Forward>
    /// The acknowledgement that counts of each awaited message and service that acknowledged it.
    private var taken: [Forward: Ack] = [:]
    /// The acknowledgement that counts of each message and service not awaited (yet).
    private var earlyAcks: [Forward: Ack] = [:]
    private var missingEmitted: Set<String> = []
    /// Messages received that another service reads, not listed by an acknowledgement yet.
    private var unlistedReads: [String: MessageType] = [:]
    /// What the acknowledgements taken list as published.
    private var listed: Set<String> = []
    /// Whether the action is sent again while incomplete: a refusal that only says to send it
    /// again is then no answer (`setAside`).
    private let retrying: Bool
    /// The ids of such refusals, set aside with the acknowledgements listing them.
    private var setAsideIds: Set<String> = []
    /// The last refusal set aside, to say why the action went unanswered at the timeout.
    public private(set) var lastSetAside: (service: String, error: ErrorBody)?

    /// A tracker for `action`, expecting acknowledgements from `firstHop` (the services that
    /// handle it directly); `retrying` when the action is sent again until it is complete.
    public init(actionId: String, firstHop: [String], retrying: Bool = false) {
        self.actionId = actionId
        self.firstHop = firstHop
        self.retrying = retrying
        pendingAcks = Set(firstHop.map { Forward(id: actionId, service: $0) })
    }

    /// Takes in one message from the bus; returns whether the action caused it (and is kept).
    @discardableResult
    public mutating func observe(_ envelope: Envelope) -> Bool {
        guard envelope.correlationId == actionId, envelope.id != actionId, !receivedIds.contains(envelope.id) else {
            return false
        }
        if retrying && setAside(envelope) { return false }
        received.append(envelope)
        receivedIds.insert(envelope.id)
        missingEmitted.remove(envelope.id)
        if case .ack(let ack) = envelope.body {
            let key = Forward(id: ack.handledId, service: envelope.service)
            if pendingAcks.remove(key) != nil {
                take(ack, from: key)
            } else if let counting = taken[key] {
                if listsOther(ack, than: counting) {
                    taken[key] = ack
                    recount()
                }
            } else if earlyAcks[key].map({ listsOther(ack, than: $0) }) ?? true {
                earlyAcks[key] = ack
            }
        }
        if Routing.readers[envelope.type] != nil {
            if listed.contains(envelope.id) { expectReaders(of: envelope.id, envelope.type) } else { unlistedReads[envelope.id] = envelope.type }
        }
        return true
    }

    /// Awaits the acknowledgements of the services that read `id`, a message of `type`.
    private mutating func expectReaders(of id: String, _ type: MessageType) {
        for reader in Routing.readers[type] ?? [] { expect(Forward(id: id, service: reader)) }
    }

    /// Whether `envelope` is a refusal that only says to send the action again (`fenced`,
    /// `not-owner`: an instance that does not decide it now, e.g. the old owner of a device that
    /// moves) or the acknowledgement listing one: neither is kept, and the hop stays awaited for
    /// the repeat. An instance publishes its refusal before its acknowledgement, on one socket,
    /// so the refusal always comes first.
    private mutating func setAside(_ envelope: Envelope) -> Bool {
        switch envelope.body {
        case .error(let error) where error.asksToSendAgain:
            setAsideIds.insert(envelope.id)
            lastSetAside = (envelope.service, error)
            return true
        case .ack(let ack):
            return ack.emitted.contains(where: setAsideIds.contains)
        default:
            return false
        }
    }

    /// Awaits `forward`'s acknowledgement, unless it came already.
    private mutating func expect(_ forward: Forward) {
        if let early = earlyAcks.removeValue(forKey: forward) {
            take(early, from: forward)
        } else {
            pendingAcks.insert(forward)
        }
    }

    /// Whether `ack` lists other messages than `counting`, the acknowledgement it would replace.
    private func listsOther(_ ack: Ack, than counting: Ack) -> Bool {
        Set(ack.emitted) != Set(counting.emitted)
    }

    /// Awaits anew what the acknowledgements that count make awaited, after one took another's
    /// place: each is taken as if it came first, and what only the replaced one listed is not.
    private mutating func recount() {
        earlyAcks.merge(taken) { early, _ in early }
        taken = [:]
        pendingAcks = []
        missingEmitted = []
        listed = []
        unlistedReads = [:]
        for envelope in received where Routing.readers[envelope.type] != nil { unlistedReads[envelope.id] = envelope.type }
        for service in firstHop { expect(Forward(id: actionId, service: service)) }
    }

    /// Takes in `ack`, of `handled` (the message and the service that acknowledged it).
    private mutating func take(_ ack: Ack, from handled: Forward) {
        taken[handled] = ack
        // What it lists is of a decision that was acknowledged: its messages another service
        // reads are awaited there (a repeat sends those again, the same ids).
        for id in ack.emitted where listed.insert(id).inserted {
            if let type = unlistedReads.removeValue(forKey: id) { expectReaders(of: id, type) }
        }
        // A repeat's acknowledgement lists what the first delivery caused, which is not sent again.
        guard !ack.duplicate else { return }
        // A message passed on is awaited through the acknowledgement of the service it went to,
        // which says it arrived.
        let passedOn = Set(ack.forwarded.map(\.id))
        for id in ack.emitted where !receivedIds.contains(id) && !passedOn.contains(id) { missingEmitted.insert(id) }
        for forward in ack.forwarded { expect(forward) }
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

    /// The messages received, in an order that does not depend on timing: by the step of the
    /// action's path that produced them (the action's first handler, the services it passed it
    /// on to, …), then by service name, then in the order each service's acknowledgement lists
    /// them, each acknowledgement after what it lists. Services that answer in parallel (a
    /// `describe` reaching input-handling and roster at once) so always print in the same order.
    public var ordered: [Envelope] {
        var acks: [String: (service: String, ack: Ack)] = [:]
        for envelope in received {
            if case .ack(let ack) = envelope.body { acks[envelope.id] = (envelope.service, ack) }
        }
        let read = Set(received.filter { Routing.readers[$0.type] != nil }.map(\.id))
        var stage: [String: Int] = [actionId: 0]
        var keys: [String: (Int, String, String, Int)] = [:]
        var settled: Set<String> = []
        var progress = true
        while progress {
            progress = false
            for (id, entry) in acks where !settled.contains(id) {
                guard let step = stage[entry.ack.handledId] else { continue }
                settled.insert(id)
                progress = true
                for (index, emitted) in entry.ack.emitted.enumerated() {
                    keys[emitted] = (step, entry.service, entry.ack.handledId, index)
                    if read.contains(emitted), stage[emitted] == nil { stage[emitted] = step + 1 }
                }
                keys[id] = (step, entry.service, entry.ack.handledId, entry.ack.emitted.count)
                for forward in entry.ack.forwarded where stage[forward.id] == nil {
                    stage[forward.id] = step + 1
                }
            }
        }
        let arrival = Dictionary(received.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        return received.sorted { left, right in
            switch (keys[left.id], keys[right.id]) {
            case let (l?, r?):
                if l.0 != r.0 { return l.0 < r.0 }
                if l.1 != r.1 { return (rank(l.1), l.1) < (rank(r.1), r.1) }
                if l.2 != r.2 { return l.2 < r.2 }
                if l.3 != r.3 { return l.3 < r.3 }
                return arrival[left.id]! < arrival[right.id]!
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): return arrival[left.id]! < arrival[right.id]!
            }
        }
    }

    /// Where `service`'s answers print among a step's: the first hop in its order, then the others.
    private func rank(_ service: String) -> Int { firstHop.firstIndex(of: service) ?? firstHop.count }

    /// The verdict on the action of type `action`, from what it caused: `refused` when a service
    /// refused it, `reported` for a question (`describe`, a roster snapshot), `changed` when a
    /// service published a change, `unchanged` otherwise (with the services' reasons, or
    /// `no-effect` when none gave one).
    public func outcome(of action: MessageType) -> Outcome {
        let errors = errors.map(\.error.code)
        if !errors.isEmpty {
            return Outcome(action: action.rawValue, result: .refused, reason: errors.joined(separator: ","), messages: received.count)
        }
        if action == .describe || action == .snapshotRequest {
            return Outcome(action: action.rawValue, result: .reported, reason: nil, messages: received.count)
        }
        var reasons: [String] = []
        var changed = false
        for envelope in ordered {
            switch envelope.body {
            case .ack: continue
            case .unchanged(let unchanged): reasons.append(unchanged.reason)
            case .inputTap, .inputPassed: continue
            default: changed = true
            }
        }
        if changed {
            return Outcome(action: action.rawValue, result: .changed, reason: nil, messages: received.count)
        }
        let reason = reasons.isEmpty ? "no-effect" : reasons.joined(separator: ",")
        return Outcome(action: action.rawValue, result: .unchanged, reason: reason, messages: received.count)
    }
}
