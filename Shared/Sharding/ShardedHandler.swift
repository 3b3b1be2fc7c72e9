import Domain
import ProcessSupport
import Runtime
import Wire

/// What is stored of one device in etcd: its state and the ids of its last actions, so that a
/// new owner answers an action retried during a move as a duplicate rather than deciding it again.
struct DeviceSnapshot<State: FieldSet>: FieldSet {
    /// The device's whole state.
    var state: State
    /// The ids of its last actions handled (at most `ShardedHandler.recentLimit`), oldest first.
    var recent: [String]

    static var placeholder: DeviceSnapshot { DeviceSnapshot(state: .placeholder, recent: []) }

    mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
        try fields.field("state", &state)
        try fields.field("recent", &recent)
    }
}

/// Wraps a service's handler for one instance among several (docs/scaling.md): it decides only
/// for the devices it owns (rendezvous hashing of their buckets over the live members in etcd),
/// receives only their requests (it subscribes to `type/BUCKET` for each bucket it owns, and
/// re-subscribes when the members change), stores each device's snapshot in etcd — fenced by
/// its epoch and by the snapshot's revision — before the runtime acknowledges, and rebuilds a
/// device it has just come to own from its snapshot.
public struct ShardedHandler<Inner: DeviceStateHandler>: ServiceHandler {
    /// How many action ids of a device its snapshot keeps (a retry comes within seconds).
    static var recentLimit: Int { 16 }
    private var inner: Inner
    private let membership: ShardMembership
    private let client: EtcdClient
    private let snapshots: String
    private let service: String
    private let log: Log
    /// The snapshot revision of each device held in memory (0: none stored yet).
    private var held: [String: Int64] = [:]
    /// The last action ids of each device held, oldest first (stored in its snapshot).
    private var recent: [String: [String]] = [:]
    private var generation: UInt64 = 0
    /// The bucket topics subscribed to now (`type/BB` for each `.byDevice` handled type).
    private var bucketTopics: Set<String>
    /// The membership generation `bucketTopics` was computed for.
    private var topicsGeneration: UInt64

    /// `inner` as the instance `membership.instance`, its snapshots under
    /// `/monsterbus/snapshots/<service>/`.
    public init(_ inner: Inner, service: String, membership: ShardMembership, client: EtcdClient, log: Log) {
        self.inner = inner
        self.membership = membership
        self.client = client
        self.service = service
        self.log = log
        snapshots = "/monsterbus/snapshots/\(service)/"
        let view = membership.view
        bucketTopics = Self.topics(for: inner.handledTypes, service: service, membership: membership, view: view)
        topicsGeneration = view.generation
    }

    public var handledTypes: [MessageType] { inner.handledTypes }

    /// The handled types that are not keyed by device, bare (a presentation read for one style
    /// only, that style's: `Routing.subscription(to:as:)`), and the topics of the buckets this
    /// instance owns for those that are.
    public var subscriptions: [String] {
        inner.handledTypes.filter { $0.addressing != .byDevice }.map { Routing.subscription(to: $0, as: service) } + bucketTopics.sorted()
    }

    public func accepts(_ type: MessageType) -> Bool { inner.accepts(type) }

    /// Only what this instance owns: a device's messages go to the owner of its bucket; a
    /// message without a device to the owner of the empty id's bucket, so that one instance answers it.
    public func accepts(_ envelope: Envelope) -> Bool {
        guard inner.accepts(envelope) else { return false }
        let view = membership.view
        guard view.epoch != nil else { return false }
        return Rendezvous.owner(ofDevice: envelope.device ?? "", among: view.members) == membership.instance
    }

    /// The bucket topics gained and lost since the last call, when the members changed.
    /// (Asked after every batch: nothing is computed unless the membership changed.)
    public mutating func subscriptionChanges() -> (add: [String], remove: [String]) {
        let view = membership.view
        guard view.generation != topicsGeneration else { return ([], []) }
        topicsGeneration = view.generation
        let wanted = Self.topics(for: inner.handledTypes, service: service, membership: membership, view: view)
        guard wanted != bucketTopics else { return ([], []) }
        defer { bucketTopics = wanted }
        return (wanted.subtracting(bucketTopics).sorted(), bucketTopics.subtracting(wanted).sorted())
    }

    /// `type/BB` for each `.byDevice` type of `types` and each bucket this instance owns in
    /// `view` (none while it is not a member); `type/SERVICE/BB` for a tap or an interaction
    /// change (`Routing.subscription(to:as:bucket:)`: only `service`'s own elements).
    private static func topics(
        for types: [MessageType], service: String, membership: ShardMembership, view: ShardMembership.View
    ) -> Set<String> {
        guard view.epoch != nil else { return [] }
        let buckets = Rendezvous.buckets(ownedBy: membership.instance, among: view.members)
        return Set(types.filter { $0.addressing == .byDevice }.flatMap { type in
            buckets.map { Routing.subscription(to: type, as: service, bucket: $0) }
        })
    }

    public mutating func handle(_ envelope: Envelope) -> Reply {
        let view = membership.view
        guard let epoch = view.epoch else { return Reply([.error(.fenced, "this instance lost its membership; nothing was decided")]) }
        if view.generation != generation { dropMoved(view) }
        guard let device = envelope.device else { return inner.handle(envelope) }
        do {
            if held[device] == nil { try load(device) }
            // Handled by the previous owner (its snapshot says so): a retry during a move.
            if recent[device]?.contains(envelope.id) == true { return Reply([], duplicate: true) }
            let reply = inner.handle(envelope)
            var ids = recent[device] ?? []
            ids.append(envelope.id)
            if ids.count > Self.recentLimit { ids.removeFirst(ids.count - Self.recentLimit) }
            recent[device] = ids
            try save(device, epoch: epoch)
            return reply
        } catch {
            // Not saved, so not decided: forget what was decided here; the snapshot has the truth.
            inner.drop(device)
            held.removeValue(forKey: device)
            recent.removeValue(forKey: device)
            log.warn("\(device): \(error)")
            return Reply([.error(.notOwner, "\(error); nothing was decided, send it again", offendingId: envelope.id)])
        }
    }

    public mutating func forgetIdleDevices(now: Double) -> [String] {
        let idle = inner.forgetIdleDevices(now: now)
        guard let epoch = membership.view.epoch else { return idle }
        for device in idle { try? save(device, epoch: epoch) }
        return idle
    }

    /// Drops the devices that moved to other instances since the last message.
    private mutating func dropMoved(_ view: ShardMembership.View) {
        generation = view.generation
        for device in held.keys where Rendezvous.owner(ofDevice: device, among: view.members) != membership.instance {
            inner.drop(device)
            held.removeValue(forKey: device)
            recent.removeValue(forKey: device)
        }
    }

    /// Rebuilds `device` from its snapshot, if it has one.
    private mutating func load(_ device: String) throws {
        guard let snapshot = try client.get(snapshots + device) else {
            held[device] = 0
            return
        }
        let data = snapshot.value
        if let stored = try? JSONCoding.decode(DeviceSnapshot<Inner.DeviceState>.self, from: data) {
            inner.restore(stored.state, of: device)
            recent[device] = stored.recent
        } else {
            // A snapshot from before the action ids were kept in it: the state alone.
            inner.restore(try JSONCoding.decode(Inner.DeviceState.self, from: data), of: device)
        }
        held[device] = snapshot.modRevision
        log.info("\(device): rebuilt from its snapshot at revision \(snapshot.modRevision)")
    }

    /// Stores `device`'s state (or deletes its snapshot when nothing is held any more), unless
    /// this instance's epoch is over or someone else wrote it since it was read.
    private mutating func save(_ device: String, epoch: Int64) throws {
        let known = held[device] ?? 0
        let state = inner.state(of: device)
        if state == nil && known == 0 {
            held.removeValue(forKey: device)
            return
        }
        let value = try state.map { try JSONCoding.encode(DeviceSnapshot(state: $0, recent: recent[device] ?? [])) }
        guard let revision = try client.write(
            snapshots + device, value, ifKey: membership.memberKey, wasCreatedAt: epoch, andKeyIsAt: known)
        else {
            // Refused: the epoch is over, another instance wrote it, or an attempt of this very
            // write whose answer was lost had stored it (EtcdClient.write). Either way the copy
            // here is stale: the caller forgets the device and reads it back at its next action.
            throw EtcdError(description: "its snapshot was not stored: this instance's epoch \(epoch) is over, or the snapshot changed since it was read (by another instance, or by an earlier attempt of this write whose answer was lost)")
        }
        if state == nil {
            held.removeValue(forKey: device)
            recent.removeValue(forKey: device)
        } else {
            held[device] = revision
        }
    }
}
