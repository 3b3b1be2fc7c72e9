import Domain
import ProcessSupport
import Runtime
import Wire

/// Wraps a service's handler for one instance among several (docs/scaling.md). It decides for
/// the devices it owns and for those it stands by for (rendezvous hashing of their buckets over
/// the live members in etcd: the owner and the runner-up), and receives only their requests (it
/// subscribes to `type/BUCKET` for each such bucket). Both decide each action from the same
/// state: the owner publishes the decision, the standby only its acknowledgement, listing the
/// messages' ids both derived from the action and the device's history (`DerivedIds`), so an
/// action is done when the standby holds its result, and neither waits for the other. A standby
/// that decided otherwise acknowledges ids that never come: the client sends the action again,
/// and the owner answers the repeat with the device's state through the standby, which takes it.
/// When the members change, a device's new owner is the instance that stood by for it, holding
/// its state already; a device moving to a new member is handed over by its previous owner; a
/// new standby is sent the states it stands by for.
public struct ShardedHandler<Inner: DeviceStateHandler>: ServiceHandler {
    private var inner: Inner
    private let membership: any MembershipSource
    private let service: String
    private let log: Log
    /// How long a bucket gained from a live member waits for its devices to be handed over.
    private let handoverSeconds: Double
    private let monotonic: @Sendable () -> Double
    /// This instance's name (`membership.instance`, read once: every message compares it).
    private let me: String
    /// Owners and standbys of the buckets, for the members of `generation`.
    private var table = ShardTable(members: [])
    private var generation: UInt64 = 0
    private var isMember = false
    /// The members' epochs as last followed.
    private var epochs: [String: Int64] = [:]
    /// Each device owned or stood by for here: its last action ids, its history, where it came from.
    private var held: [String: HeldDevice] = [:]
    /// Counts the updates sent in this epoch.
    private var sequence: UInt64 = 0
    /// Writes the updates' snapshots.
    private var snapshots = SnapshotWriter<Inner.DeviceState>()
    /// Each bucket gained from a live member: from whom, and until when (monotonic seconds) the
    /// devices not held yet are left to that member, waiting for them to be handed over.
    private var awaitingHandover: [Int: (from: String, until: Double)] = [:]
    /// When each member last said it had handed over everything it held of the buckets it
    /// lost to this instance (it may say so before this instance sees the members change).
    private var handedOver: [String: Double] = [:]
    /// Updates to send without an action (after the members changed, for idle devices).
    private var unsent: [Effect] = []
    /// The members that took buckets from this instance, told it has handed them over — again
    /// every quarter second until the wait for it is over (one message may come before the
    /// member hears the bus): until when, and when next.
    private var handoverDone: [String: (until: Double, next: Double)] = [:]
    /// The soonest `next` of `handoverDone`: until then a loop pass has nothing of it to say.
    private var nextHandoverDone = Double.infinity
    /// The topic of the updates sent to this instance, exactly (its subscription is a prefix,
    /// which another instance's name may extend).
    private let updateTopic: [UInt8]
    /// The bucket topics subscribed to now (`type/BB` for each `.byDevice` handled type).
    private var bucketTopics: Set<String> = []
    /// The membership generation `bucketTopics` was computed for.
    private var topicsGeneration: UInt64 = 0

    /// `inner` as the instance `membership.instance` of `service`; a bucket gained from a live
    /// member waits `handoverSeconds` (the lease's TTL) for its devices.
    public init(
        _ inner: Inner, service: String, membership: any MembershipSource, handoverSeconds: Double, log: Log,
        monotonic: @escaping @Sendable () -> Double = { Timestamp.monotonic() }
    ) {
        self.inner = inner
        self.membership = membership
        self.service = service
        self.handoverSeconds = handoverSeconds
        self.log = log
        self.monotonic = monotonic
        me = membership.instance
        updateTopic = Array(Topic.name(.replica, key: service + "/" + membership.instance).utf8)
        follow(membership.view)
        bucketTopics = topics()
        topicsGeneration = generation
    }

    /// The service's types and the updates (`shard.replica`).
    public var handledTypes: [MessageType] { inner.handledTypes + [.replica] }

    /// The handled types that are not keyed by device, bare (a presentation read for one style
    /// only, that style's: `Routing.subscription(to:as:)`); the topics of the buckets this
    /// instance owns for those that are; and the updates sent to this instance.
    public var subscriptions: [String] {
        inner.handledTypes.filter { $0.addressing != .byDevice }.map { Routing.subscription(to: $0, as: service) }
            + bucketTopics.sorted() + [String(decoding: updateTopic, as: UTF8.self)]
    }

    /// The service's types and the updates.
    public func accepts(_ type: MessageType) -> Bool { type == .replica || inner.accepts(type) }

    /// What this instance owns or stands by for: a device's messages go to the owner of its
    /// bucket and to its standby; a message without a device to the owner of the empty id's
    /// bucket only, so that one instance answers it.
    public func accepts(_ envelope: Envelope) -> Bool {
        // A membership lost since it was last followed: `handle` refuses, and the change is
        // followed at once (the membership wakes the loop).
        guard inner.accepts(envelope), isMember else { return false }
        let device = envelope.device ?? ""
        let bucket = ShardTable.bucket(of: device)
        guard table.owner(ofBucket: bucket) == me else { return envelope.device != nil && table.standby(ofBucket: bucket) == me }
        // A device of a bucket being handed over, not here yet: its previous owner answers
        // until it has seen the members change, then the gateway's retry reaches this instance.
        return !isAwaitingHandover(device, bucket)
    }

    /// Whether this instance stands by for `envelope`'s device rather than owning it.
    public func standsBy(for envelope: Envelope) -> Bool {
        guard let device = envelope.device else { return false }
        let bucket = ShardTable.bucket(of: device)
        return table.owner(ofBucket: bucket) != me && table.standby(ofBucket: bucket) == me
    }

    /// Whether `device` (of `bucket`) is neither held nor handed over yet while its bucket waits.
    private func isAwaitingHandover(_ device: String, _ bucket: Int) -> Bool {
        guard let awaiting = awaitingHandover[bucket], monotonic() < awaiting.until else { return false }
        return held[device] == nil
    }

    /// The membership's: a change of the members wakes the loop to follow it.
    public var wakeup: Wakeup? { membership.wakeup }

    /// The next "handed over" to say again: the loop wakes for it, idle or not.
    public var nextWake: Double { nextHandoverDone }

    /// Leaves the members (a planned stop): the others take its devices over, their standbys
    /// holding them already, at their next read of the list, not a TTL later.
    public func leave() { membership.leave() }

    /// The members changed (followed while handling a message) and the topics were not asked since.
    public var hasPendingChanges: Bool { generation != topicsGeneration }

    /// The bucket topics gained and lost since the last call, when the members changed.
    public mutating func subscriptionChanges() -> (add: [String], remove: [String]) {
        follow(membership.view)
        // Asked after every batch: nothing is computed unless the members changed.
        guard generation != topicsGeneration else { return ([], []) }
        topicsGeneration = generation
        let wanted = topics()
        guard wanted != bucketTopics else { return ([], []) }
        defer { bucketTopics = wanted }
        return (wanted.subtracting(bucketTopics).sorted(), bucketTopics.subtracting(wanted).sorted())
    }

    /// The updates to send since the last call: states for a new standby or a new owner, and
    /// devices forgotten for being idle.
    public mutating func messagesOfItsOwn() -> [Effect] {
        defer { unsent = [] }
        guard !handoverDone.isEmpty else { return unsent }
        let now = monotonic()
        guard now >= nextHandoverDone, let epoch = membership.view.epoch else { return unsent }
        // Said after the devices, on the same socket: each gainer stops waiting for this instance.
        handoverDone = handoverDone.filter { now < $0.value.until }
        for (gainer, times) in handoverDone.sorted(by: { $0.key < $1.key }) where now >= times.next {
            sequence += 1
            unsent.append(Effect(.replica(Replica(standby: gainer, owner: me, epoch: epoch, sequence: sequence, snapshot: nil))))
            handoverDone[gainer]?.next = now + 0.25
        }
        nextHandoverDone = handoverDone.values.map(\.next).min() ?? .infinity
        return unsent
    }

    /// `type/BB` for each `.byDevice` handled type and each bucket this instance owns or stands
    /// by for; `type/SERVICE/BB` for a tap or an interaction change (`Routing.subscription(to:as:bucket:)`).
    private func topics() -> Set<String> {
        guard isMember else { return [] }
        let buckets = (0..<Topic.bucketCount).filter { table.owner(ofBucket: $0) == me || table.standby(ofBucket: $0) == me }
            .map(Topic.bucketName)
        return Set(inner.handledTypes.filter { $0.addressing == .byDevice }.flatMap { type in
            buckets.map { Routing.subscription(to: type, as: service, bucket: $0) }
        })
    }

    /// Decides `envelope` for a device this instance owns or stands by for: as its owner, the
    /// decision published and acknowledged by the standby; standing by, only acknowledged. A
    /// repeat that reaches it (decided here standing by, or by the previous owner) is answered
    /// by the owner alone. Refuses, asking to send it again, one that moved or is being handed over.
    public mutating func handle(_ envelope: Envelope) -> Reply {
        let view = membership.view
        guard let epoch = view.epoch else { return Reply([.error(.fenced, "this instance lost its membership; nothing was decided")]) }
        follow(view)
        guard let device = envelope.device else { return inner.handle(envelope) }
        let bucket = ShardTable.bucket(of: device)
        let owns = table.owner(ofBucket: bucket) == me
        guard owns || table.standby(ofBucket: bucket) == me else {
            return Reply([.error(.notOwner, "\(device) moved to another instance as the members changed; nothing was decided, send it again", offendingId: envelope.id)])
        }
        let known = held[device]
        if known == nil, owns, isAwaitingHandover(device, bucket) {
            return Reply([.error(.notOwner, "\(device) is being handed over from the instance that owned it; nothing was decided, send it again", offendingId: envelope.id)])
        }
        let entry = known ?? HeldDevice()
        if entry.recent.contains(envelope.id) {
            return owns ? repeatedHere(envelope, of: device, entry, epoch: epoch) : Reply([], acknowledgement: .nobody)
        }
        var reply = inner.handle(envelope)
        // Alone, no other instance derives its ids: fresh ones, and the history kept as it is
        // (a new standby starts from it, sent with the state).
        let alone = owns && table.standby(ofBucket: bucket) == nil
        if !alone {
            entry.history = DeviceHistory.fold(entry.history, action: envelope.id, effects: reply.effects)
            reply.ids = DerivedIds(service: service, history: entry.history)
            reply.acknowledgement = owns ? .byStandbyDeciding : .only
        }
        // Forgotten by the action (`device.forget`, the one action that drops a device held):
        // nothing of it is kept; a device new here is kept if the action left it a state.
        if known == nil || envelope.type == .forget ? inner.state(of: device) != nil : true {
            entry.recent.append(envelope.id)
            if !owns, let ids = reply.ids {
                // The last one's storage taken again when nothing else holds it: one allocation a decision less.
                if isKnownUniquelyReferenced(&entry.stoodBy), let kept = entry.stoodBy {
                    kept.hold(action: envelope.id, ids: ids, effects: reply.effects)
                } else {
                    entry.stoodBy = StoodBy(action: envelope.id, ids: ids, effects: reply.effects)
                }
            }
            if known == nil { held[device] = entry }
        } else if known != nil {
            held.removeValue(forKey: device)
        }
        return reply
    }

    /// The owner's answer to a retry of an action of `device` it did not decide as the owner:
    /// its own decision standing by, published now (the previous owner may have published
    /// nothing), or what the previous owner sent onward for it.
    private mutating func repeatedHere(_ envelope: Envelope, of device: String, _ entry: HeldDevice, epoch: Int64) -> Reply {
        if let decided = entry.stoodBy, decided.action == envelope.id {
            return Reply(decided.effects, acknowledgement: repeated(device, epoch: epoch), ids: decided.ids)
        }
        let onward = entry.takenOver?.onward.last { $0.action == envelope.id }?.messages ?? []
        return Reply([], duplicate: true, acknowledgement: repeated(device, epoch: epoch), republished: onward.map { [Array($0.topic.utf8), $0.message.bytes] })
    }

    /// A repeat of an action this instance decided, answered from the delivery window.
    public mutating func acknowledgement(ofRepeat envelope: Envelope) -> Reply.Acknowledgement {
        let view = membership.view
        guard let epoch = view.epoch, let device = envelope.device else { return .published }
        follow(view)
        return repeated(device, epoch: epoch)
    }

    /// A refusal of an action its standby may have decided: acknowledged by the standby, sent
    /// the device's state with it, which puts back a standby that decided otherwise. The action
    /// is among the device's recent ids (the standby's state holding its decision is then not
    /// ahead of the owner's), not in its history: a standby that refused it too holds the same.
    public mutating func acknowledgement(ofRefused envelope: Envelope) -> Reply.Acknowledgement {
        if let device = envelope.device, let entry = held[device], table.standby(ofBucket: ShardTable.bucket(of: device)) != nil,
           !entry.recent.contains(envelope.id) {
            entry.recent.append(envelope.id)
        }
        return acknowledgement(ofRepeat: envelope)
    }

    /// Who acknowledges a repeated action of `device`, held here: its standby, sent the device's
    /// state with it (it may have decided the action otherwise, or missed it, and the action is
    /// done only when the standby holds its result); this instance when it has none.
    private mutating func repeated(_ device: String, epoch: Int64) -> Reply.Acknowledgement {
        guard held[device] != nil, let state = inner.state(of: device),
              let standby = table.standby(ofBucket: ShardTable.bucket(of: device)),
              let update = update(device, to: standby, epoch: epoch, state: state)
        else { return .published }
        return .byStandby(update, device: device)
    }

    /// Forgets the idle devices, and tells the standby of each one owned here to forget it too.
    public mutating func forgetIdleDevices(now: Double) -> [String] {
        let idle = inner.forgetIdleDevices(now: now)
        guard let epoch = membership.view.epoch else { return idle }
        for device in idle where held.removeValue(forKey: device) != nil {
            let bucket = ShardTable.bucket(of: device)
            if table.owner(ofBucket: bucket) == me, let standby = table.standby(ofBucket: bucket),
               let update = update(device, to: standby, epoch: epoch, state: nil) {
                unsent.append(Effect(.replica(update), device: device))
            }
        }
        return idle
    }

    /// Joins the members only now: before, the others would hand it devices it could not hear.
    public mutating func busIsLive() { membership.start() }

    /// Every update (`shard.replica`) is taken as it came.
    public func takesAsItCame(topic: [UInt8]) -> Bool { Topic.hasType(topic, .replica) }

    /// An update sent to this instance (nil: another's, whose name begins with this one's), read
    /// as far as it needs (`EnvelopeCodec.update`); one that cannot be read changes nothing.
    public mutating func take(asItCame frames: [[UInt8]]) -> Reply? {
        guard frames[0] == updateTopic else { return nil }
        let view = membership.view
        guard view.epoch != nil else { return Reply([.error(.fenced, "this instance lost its membership; the update was not taken")]) }
        follow(view)
        let update: EnvelopeCodec.Update
        do {
            update = try EnvelopeCodec.update(frames)
        } catch {
            return Reply([.error(error.code, "an update could not be read: \(error.reason); nothing was taken", offendingId: error.offendingId)])
        }
        return take(update.replica, of: update.device, acknowledgement: update.acknowledgement, view: view)
    }

    /// Takes an update of `device` sent to this instance as its standby or its new owner, and
    /// passes on the owner's `acknowledgement` of the action it follows (its frames) when the
    /// state held here holds that action.
    private mutating func take(_ update: Replica, of device: String?, acknowledgement: [[UInt8]], view: ShardMembership.View) -> Reply {
        guard let device else {
            // Without a device: the sender has handed over every device of the buckets it lost to this instance.
            guard update.epoch == view.epochs[update.owner] else { return Reply([]) }
            let heard = handedOver.updateValue(monotonic(), forKey: update.owner) != nil
            let waiting = awaitingHandover.count
            awaitingHandover = awaitingHandover.filter { $0.value.from != update.owner }
            if !heard || awaitingHandover.count < waiting { log.info("\(update.owner) has handed over its devices") }
            return Reply([])
        }
        guard view.epochs[update.owner] == update.epoch else {
            let why = "\(update.owner) at epoch \(update.epoch) is not a member at that epoch in this instance's view"
            log.warn("refused an update of \(device): \(why)")
            return Reply([.error(.fenced, "the update of \(device) was refused: \(why)")])
        }
        // The owner's acknowledgement of the action, published as it came.
        let passedOn = acknowledgement.isEmpty ? [] : [acknowledgement]
        guard let entry = held[device] else {
            guard update.snapshot != nil else { return Reply([], republished: passedOn) }
            guard let taken = snapshot(of: device, in: update) else { return Reply([]) }
            restore(device, taken, from: update, after: nil)
            return Reply([], republished: passedOn)
        }
        let bucket = ShardTable.bucket(of: device)
        let owner = table.owner(ofBucket: bucket)
        if let from = entry.takenOver {
            // An update sent again, or late, from the same owner: the state held is newer, so it holds the action too.
            if from.owner == update.owner, from.epoch == update.epoch, from.sequence >= update.sequence { return Reply([], republished: passedOn) }
            // A deposed owner's late update over its owner's.
            if from.owner == owner, update.owner != owner {
                let why = "\(update.owner) no longer owns \(device): \(from.owner) does"
                log.warn("refused an update of \(device): \(why)")
                return Reply([.error(.fenced, "the update of \(device) was refused: \(why)")])
            }
        }
        if owner == me {
            // Handed over to this new owner: taken only while nothing was decided here since it came.
            guard entry.recent.decidedNothingHere else { return Reply([]) }
        } else if DeviceHistory.parse(update.history) == entry.history {
            // The same history: the same state, the action in it.
            return Reply([], republished: passedOn)
        }
        guard update.snapshot != nil else {
            inner.drop(device)
            held.removeValue(forKey: device)
            return Reply([], republished: passedOn)
        }
        guard let snapshot = snapshot(of: device, in: update) else { return Reply([]) }
        // A standby that decided an action the owner's state does not hold yet keeps its own:
        // taking it would undo that decision. The action stays incomplete; a later repeat repairs it.
        if owner != me, let last = entry.recent.ids.last, !snapshot.recent.contains(last) { return Reply([]) }
        restore(device, snapshot, from: update, after: entry.takenOver)
        return Reply([], republished: passedOn)
    }

    /// The state `update` carries of `device`; nil, logged, when it cannot be read (the state held is kept).
    private func snapshot(of device: String, in update: Replica) -> DeviceSnapshot<Inner.DeviceState>? {
        do {
            return try JSONCoding.decode(DeviceSnapshot<Inner.DeviceState>.self, from: update.snapshot?.bytes ?? [])
        } catch {
            log.warn("\(device): its state from \(update.owner) at its update \(update.sequence) is unreadable (\(error)); \(held[device] == nil ? "it starts anew" : "the state held is kept")")
            return nil
        }
    }

    /// Holds `device`'s state from `snapshot`, which `update` carried (a new standby's, a
    /// handover, or a repair), after `earlier` from the same owner.
    private mutating func restore(_ device: String, _ snapshot: DeviceSnapshot<Inner.DeviceState>, from update: Replica, after earlier: TakenOver?) {
        inner.restore(snapshot.state, of: device)
        held[device] = HeldDevice(
            recent: RecentIds(inherited: snapshot.recent), history: DeviceHistory.parse(update.history) ?? 0,
            takenOver: TakenOver(update, after: earlier))
    }

    /// Follows the members when they changed: drops what this instance neither owns nor stands
    /// by for (handing each device it owned to its new owner), and sends the states a new standby needs.
    private mutating func follow(_ view: ShardMembership.View) {
        guard view.generation != generation || (view.epoch != nil) != isMember else { return }
        // A member at a new epoch under the same name went and started again between two reads
        // of the list: followed as gone (its devices taken over here if this instance stood by
        // for them), then as joined (handed to its new incarnation, which holds nothing). What
        // the first step would send is for members as they no longer are: not sent.
        let restarted = isMember ? view.members.filter { $0 != me && epochs[$0] != nil && epochs[$0] != view.epochs[$0] } : []
        if !restarted.isEmpty, view.epoch != nil {
            var gone = view
            gone.members.removeAll { restarted.contains($0) }
            for name in restarted { gone.epochs[name] = nil }
            let queued = unsent.count
            change(to: gone)
            unsent.removeSubrange(queued...)
        }
        change(to: view)
    }

    /// `follow`'s work for one change of the members.
    private mutating func change(to view: ShardMembership.View) {
        generation = view.generation
        epochs = view.epochs
        guard let epoch = view.epoch else {
            // No longer a member: the others take its devices over.
            for device in held.keys { inner.drop(device) }
            held = [:]
            awaitingHandover = [:]
            handedOver = [:]
            handoverDone = [:]
            nextHandoverDone = .infinity
            table = ShardTable(members: [])
            isMember = false
            return
        }
        // Joining, the buckets it takes were the others', and it holds nothing any other member
        // could be waiting for: it says so to each at once (two that start together wait for nothing).
        let joining = !isMember
        let old = joining ? ShardTable(members: view.members.filter { $0 != me }) : table
        isMember = true
        table = ShardTable(members: view.members)
        let now = monotonic()
        awaitingHandover = awaitingHandover.filter { table.owner(ofBucket: $0.key) == me && now < $0.value.until }
        var gainers: Set<String> = joining ? Set(view.members.filter { $0 != me }) : []
        for bucket in 0..<Topic.bucketCount {
            let owner = table.owner(ofBucket: bucket), previous = old.owner(ofBucket: bucket)
            // Only a member older than this instance's epoch can have held a bucket it owns.
            if owner == me, let previous, previous != me, let since = view.epochs[previous], since < epoch,
               now - (handedOver[previous] ?? -.infinity) > handoverSeconds {
                awaitingHandover[bucket] = (previous, now + handoverSeconds)
            }
            if previous == me, let owner, owner != me { gainers.insert(owner) }
        }
        // Said in one line per previous owner (a loss moves hundreds of devices), each device at debug.
        var takenOver: [String: [String]] = [:]
        for device in Array(held.keys) {
            let bucket = ShardTable.bucket(of: device)
            let state = inner.state(of: device)
            let owner = table.owner(ofBucket: bucket), standby = table.standby(ofBucket: bucket)
            let owned = old.owner(ofBucket: bucket) == me
            if owner == me {
                if !owned, let previous = old.owner(ofBucket: bucket) {
                    takenOver[previous, default: []].append(device)
                    log.debug("\(device): taken over from \(previous)")
                }
                if let standby, standby != old.standby(ofBucket: bucket) || !owned,
                   let state, let update = update(device, to: standby, epoch: epoch, state: state) {
                    unsent.append(Effect(.replica(update), device: device))
                }
                continue
            }
            if owned, let owner, let state, let update = update(device, to: owner, epoch: epoch, state: state) {
                unsent.append(Effect(.replica(update), device: device))
            }
            if standby != me {
                inner.drop(device)
                held.removeValue(forKey: device)
            }
        }
        for gainer in gainers { handoverDone[gainer] = (now + handoverSeconds, now) }
        if !gainers.isEmpty { nextHandoverDone = now }
        for (owner, devices) in takenOver.sorted(by: { $0.key < $1.key }) {
            let named = devices.sorted().prefix(5).joined(separator: ", ")
            log.info("taken over \(devices.count) device(s) from \(owner): \(named)\(devices.count > 5 ? " and \(devices.count - 5) more" : "")")
        }
    }

    /// An update of `device` (`state`, nil when forgotten) for `instance`, the next of this
    /// epoch, naming the device's last action and its history (the runtime adds what it sent
    /// onward, so that a new owner or standby can answer a retry of it completely); nil (logged)
    /// when the state cannot be written.
    private mutating func update(_ device: String, to instance: String, epoch: Int64, state: Inner.DeviceState?) -> Replica? {
        var snapshot: NestedValue?
        if let state {
            do {
                snapshot = try snapshots.write(state, recent: held[device]?.recent.ids ?? [])
            } catch {
                log.warn("\(device): its state cannot be written (\(error)); not sent to \(instance)")
                return nil
            }
        }
        sequence += 1
        var update = Replica(standby: instance, owner: me, epoch: epoch, sequence: sequence, snapshot: snapshot, action: held[device]?.recent.ids.last)
        if let history = held[device]?.history { update.history = DeviceHistory.text(history) }
        return update
    }
}
