import Domain
import ProcessSupport
import Runtime
import Wire

/// Wraps a service's handler for one instance among several (docs/scaling.md). It decides only
/// for the devices it owns (rendezvous hashing of their buckets over the live members in etcd)
/// and receives only their requests (it subscribes to `type/BUCKET` for each bucket it owns).
/// After each action that changed a device, it sends the device's state to the instance
/// standing by for it (`shard.replica`, after the action's other messages, on the same socket),
/// with the action's acknowledgement as its last frames in place of its own: the standby holds
/// the state in memory and publishes the acknowledgement as it came, so an action is done when
/// the standby holds its result, and the owner never waits for it. The standby takes an update
/// undecoded (`take(asItCame:)`): its header's few members read, the state kept as bytes. When the members change, a
/// device's new owner is the instance that stood by for it; a device moving to a new member is
/// handed over by its previous owner; a new standby is sent the states it stands by for.
public struct ShardedHandler<Inner: DeviceStateHandler>: ServiceHandler {
    private var inner: Inner
    private let membership: any MembershipSource
    private let service: String
    private let log: Log
    /// How long a bucket gained from a live member waits for its devices to be handed over.
    private let handoverSeconds: Double
    private let monotonic: @Sendable () -> Double
    private var me: String { membership.instance }
    /// Owners and standbys of the buckets, for the members of `generation`.
    private var table = ShardTable(members: [])
    private var generation: UInt64 = 0
    private var isMember = false
    /// The members' epochs as last followed.
    private var epochs: [String: Int64] = [:]
    /// Each device owned and held here: its last action ids, and what came with its copy.
    private var held: [String: HeldDevice] = [:]
    /// The states held for other instances' devices.
    private var copies = StandbyCopies()
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

    /// Only what this instance owns: a device's messages go to the owner of its bucket; a
    /// message without a device to the owner of the empty id's bucket, so that one instance
    /// answers it.
    public func accepts(_ envelope: Envelope) -> Bool {
        guard inner.accepts(envelope), membership.view.epoch != nil else { return false }
        let device = envelope.device ?? ""
        let bucket = ShardTable.bucket(of: device)
        guard table.owner(ofBucket: bucket) == me else { return false }
        // A device of a bucket being handed over, not here yet: its previous owner answers
        // until it has seen the members change, then the gateway's retry reaches this instance.
        return !isAwaitingHandover(device, bucket)
    }

    /// Whether `device` (of `bucket`) is neither held nor handed over yet while its bucket waits.
    private func isAwaitingHandover(_ device: String, _ bucket: Int) -> Bool {
        guard let awaiting = awaitingHandover[bucket], monotonic() < awaiting.until else { return false }
        return held[device] == nil && copies.copies[device] == nil
    }

    /// The membership's: a change of the members wakes the loop to follow it.
    public var wakeup: Wakeup? { membership.wakeup }

    /// The next "handed over" to say again: the loop wakes for it, idle or not.
    public var nextWake: Double { nextHandoverDone }

    /// Leaves the members (a planned stop): the others take its devices over from their copies
    /// at their next read of the list, not a TTL later.
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

    /// `type/BB` for each `.byDevice` handled type and each bucket this instance owns;
    /// `type/SERVICE/BB` for a tap or an interaction change (`Routing.subscription(to:as:bucket:)`).
    private func topics() -> Set<String> {
        guard isMember else { return [] }
        let buckets = (0..<Topic.bucketCount).filter { table.owner(ofBucket: $0) == me }.map(Topic.bucketName)
        return Set(inner.handledTypes.filter { $0.addressing == .byDevice }.flatMap { type in
            buckets.map { Routing.subscription(to: type, as: service, bucket: $0) }
        })
    }

    /// Decides `envelope` for a device this instance owns (taken over from its copy first if
    /// it stood by for it); refuses, asking to send it again, one that moved or is being handed over.
    public mutating func handle(_ envelope: Envelope) -> Reply {
        let view = membership.view
        guard let epoch = view.epoch else { return Reply([.error(.fenced, "this instance lost its membership; nothing was decided")]) }
        follow(view)
        guard let device = envelope.device else { return inner.handle(envelope) }
        let bucket = ShardTable.bucket(of: device)
        guard table.owner(ofBucket: bucket) == me else {
            return Reply([.error(.notOwner, "\(device) moved to another instance as the members changed; nothing was decided, send it again", offendingId: envelope.id)])
        }
        // Taken out while it is updated (one look-up each way, and no copy of the list).
        var entry: HeldDevice
        if let taken = held.removeValue(forKey: device) {
            entry = taken
        } else if let copy = copies.remove(device) {
            promote(device, copy)
            entry = held.removeValue(forKey: device) ?? HeldDevice(recent: RecentIds())
        } else if isAwaitingHandover(device, bucket) {
            return Reply([.error(.notOwner, "\(device) is being handed over from the instance that owned it; nothing was decided, send it again", offendingId: envelope.id)])
        } else {
            entry = HeldDevice(recent: RecentIds())
        }
        // Handled by the previous owner (the state it handed over says so): a retry during a move.
        if entry.recent.inherits(envelope.id) {
            let onward = entry.takenOver?.onward.last { $0.action == envelope.id }?.messages ?? []
            held[device] = entry
            return Reply([], duplicate: true, acknowledgement: repeated(device, epoch: epoch), republished: onward.map { [Array($0.topic.utf8), $0.message.bytes] })
        }
        var reply = inner.handle(envelope)
        let after = inner.state(of: device)
        // Forgotten by the action (`device.forget`): nothing of it is kept.
        if after != nil {
            entry.recent.append(envelope.id)
            held[device] = entry
        }
        // A refusal, or an answer that nothing changed, changed nothing (the services' rule):
        // anything else may have, and the standby is sent the state with the acknowledgement.
        if reply.effects.contains(where: { mayChange($0) }), let standby = table.standby(ofBucket: bucket),
           let update = update(device, to: standby, epoch: epoch, state: after) {
            reply.acknowledgement = .byStandby(update, device: device)
        }
        return reply
    }

    /// A repeat of an action this instance decided, answered from the delivery window.
    public mutating func acknowledgement(ofRepeat envelope: Envelope) -> Reply.Acknowledgement {
        let view = membership.view
        guard let epoch = view.epoch, let device = envelope.device else { return .published }
        follow(view)
        return repeated(device, epoch: epoch)
    }

    /// Who acknowledges a repeated action of `device`, held here: its standby, sent the device's
    /// state with it (the update the first acknowledgement went with may be what was lost, and
    /// the action is done only when the standby holds it); this instance when it has none.
    private mutating func repeated(_ device: String, epoch: Int64) -> Reply.Acknowledgement {
        guard held[device] != nil, let state = inner.state(of: device),
              let standby = table.standby(ofBucket: ShardTable.bucket(of: device)),
              let update = update(device, to: standby, epoch: epoch, state: state)
        else { return .published }
        return .byStandby(update, device: device)
    }

    /// Forgets the idle devices, and tells each one's standby to forget its copy.
    public mutating func forgetIdleDevices(now: Double) -> [String] {
        let idle = inner.forgetIdleDevices(now: now)
        guard let epoch = membership.view.epoch else { return idle }
        for device in idle where held.removeValue(forKey: device) != nil {
            if let standby = table.standby(ofBucket: ShardTable.bucket(of: device)), let update = update(device, to: standby, epoch: epoch, state: nil) {
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
    /// passes on the owner's `acknowledgement` of the action it follows (its frames).
    private mutating func take(_ update: Replica, of device: String?, acknowledgement: [[UInt8]], view: ShardMembership.View) -> Reply {
        guard let device else {
            // Without a device: the sender has handed over every device of the buckets it lost to this instance.
            guard view.epochs[update.owner] == update.epoch else { return Reply([]) }
            let heard = handedOver.updateValue(monotonic(), forKey: update.owner) != nil
            let waiting = awaitingHandover.count
            awaitingHandover = awaitingHandover.filter { $0.value.from != update.owner }
            if !heard || awaitingHandover.count < waiting { log.info("\(update.owner) has handed over its devices") }
            return Reply([])
        }
        // The owner's acknowledgement of the action, published as it came.
        let passedOn = acknowledgement.isEmpty ? [] : [acknowledgement]
        if let heldHere = held[device] {
            // Taken over from an earlier copy of the sender's, and nothing decided here since:
            // its last updates, on their way as it left, are newer.
            if heldHere.recent.decidedNothingHere, let from = heldHere.takenOver, from.owner == update.owner, from.epoch == update.epoch,
               update.sequence > from.sequence, let snapshot = update.snapshot {
                let onward = StandbyCopies.onward(from.onward, adding: update)
                let copy = StandbyCopies.Copy(owner: update.owner, epoch: update.epoch, sequence: update.sequence, snapshot: snapshot, onward: onward)
                return promote(device, copy) ? Reply([], republished: passedOn) : Reply([])
            }
            // Decided here already (or a handover that came after the wait for it ran out): newer.
            // Its acknowledgement is not passed on: the state here does not hold that action.
            return Reply([])
        }
        switch copies.take(update, of: device, epochs: view.epochs, table: table) {
        case .taken:
            if table.owner(ofBucket: ShardTable.bucket(of: device)) == me, let copy = copies.remove(device) { promote(device, copy) }
            return Reply([], republished: passedOn)
        case .stale:
            // The copy held is newer, so it holds the action too.
            return Reply([], republished: passedOn)
        case .refused(let why):
            log.warn("refused an update of \(device): \(why)")
            return Reply([.error(.fenced, "the update of \(device) was refused: \(why)")])
        }
    }

    /// Follows the members when they changed: drops what this instance no longer owns (handing
    /// each device to its new owner), takes over the devices it stood by for whose owner left,
    /// sends the states a new standby needs, and keeps only the copies it still stands by for.
    private mutating func follow(_ view: ShardMembership.View) {
        guard view.generation != generation || (view.epoch != nil) != isMember else { return }
        // A member at a new epoch under the same name went and started again between two reads
        // of the list: followed as gone (its devices taken over from the copies held here), then
        // as joined (handed to its new incarnation, which holds nothing). What the first step
        // would send is for members as they no longer are: not sent.
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
            copies = StandbyCopies()
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
        for device in Array(held.keys) {
            let bucket = ShardTable.bucket(of: device)
            let state = inner.state(of: device)
            if let owner = table.owner(ofBucket: bucket), owner != me {
                if let state, let update = update(device, to: owner, epoch: epoch, state: state) {
                    unsent.append(Effect(.replica(update), device: device))
                    if table.standby(ofBucket: bucket) == me, let ownerEpoch = view.epochs[owner], let snapshot = update.snapshot {
                        copies.hold(StandbyCopies.Copy(owner: owner, epoch: ownerEpoch, sequence: 0, snapshot: snapshot), of: device)
                    }
                }
                inner.drop(device)
                held.removeValue(forKey: device)
            } else if let standby = table.standby(ofBucket: bucket), standby != old.standby(ofBucket: bucket) || old.owner(ofBucket: bucket) != me,
                      let state, let update = update(device, to: standby, epoch: epoch, state: state) {
                unsent.append(Effect(.replica(update), device: device))
            }
        }
        for gainer in gainers { handoverDone[gainer] = (now + handoverSeconds, now) }
        if !gainers.isEmpty { nextHandoverDone = now }
        // Said in one line per previous owner (a loss moves hundreds of devices), each device at debug.
        var takenOver: [String: [String]] = [:]
        for device in Array(copies.copies.keys) {
            let bucket = ShardTable.bucket(of: device)
            if table.owner(ofBucket: bucket) == me, held[device] == nil, let copy = copies.remove(device) {
                if promote(device, copy, level: .debug) { takenOver[copy.owner, default: []].append(device) }
            } else if table.standby(ofBucket: bucket) != me {
                _ = copies.remove(device)
            }
        }
        for (owner, devices) in takenOver.sorted(by: { $0.key < $1.key }) {
            let named = devices.sorted().prefix(5).joined(separator: ", ")
            log.info("taken over \(devices.count) device(s) from \(owner): \(named)\(devices.count > 5 ? " and \(devices.count - 5) more" : "")")
        }
    }

    /// Holds `device` from `copy` (its owner left, or handed it over) and sends it to the
    /// instance now standing by for it; logs it at `level`. False when the state was unreadable.
    @discardableResult
    private mutating func promote(_ device: String, _ copy: StandbyCopies.Copy, level: LogLevel = .info) -> Bool {
        let snapshot: DeviceSnapshot<Inner.DeviceState>
        do {
            snapshot = try JSONCoding.decode(DeviceSnapshot<Inner.DeviceState>.self, from: copy.snapshot.bytes)
        } catch {
            log.warn("\(device): its state from \(copy.owner) at its update \(copy.sequence) is unreadable (\(error)); \(held[device] == nil ? "it starts anew" : "the state held is kept")")
            return false
        }
        let state = snapshot.state
        inner.restore(state, of: device)
        held[device] = HeldDevice(recent: RecentIds(inherited: snapshot.recent), takenOver: TakenOver(copy))
        log.write(level, "\(device): taken over from \(copy.owner) at its update \(copy.sequence)")
        if let epoch = membership.view.epoch, let standby = table.standby(ofBucket: ShardTable.bucket(of: device)),
           let update = update(device, to: standby, epoch: epoch, state: state) {
            unsent.append(Effect(.replica(update), device: device))
        }
        return true
    }

    /// An update of `device` (`state`, nil when forgotten) for `instance`, the next of this
    /// epoch, naming the device's last action (the runtime adds what it sent onward, so that a
    /// new owner or standby can answer a retry of it completely); nil (logged) when the state
    /// cannot be written.
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
        return Replica(standby: instance, owner: me, epoch: epoch, sequence: sequence, snapshot: snapshot, action: held[device]?.recent.ids.last)
    }
}

/// Whether publishing `effect` may come with a change of the device's state: anything but an
/// `error` or an `action.unchanged`.
private func mayChange(_ effect: Effect) -> Bool {
    switch effect.body {
    case .error, .unchanged: false
    default: true
    }
}
