import Foundation
import MonsterKit

/// A service handler whose state is per device and can be saved and rebuilt: what sharding
/// needs to move a device between instances.
public protocol DeviceStateHandler: ServiceHandler {
    /// One device's whole state.
    associatedtype DeviceState: Codable
    /// The state held for `device`, if any.
    func state(of device: String) -> DeviceState?
    /// Holds `state` for `device` (rebuilt from its snapshot).
    mutating func restore(_ state: DeviceState, of device: String)
    /// Drops `device` from memory only (it moved to another instance).
    mutating func drop(_ device: String)
}

/// Wraps a service's handler for one instance among several (docs/scaling.md): it decides only
/// for the devices it owns (rendezvous hashing over the live members in etcd), stores each
/// device's snapshot in etcd — fenced by its epoch and by the snapshot's revision — before the
/// runtime acknowledges, and rebuilds a device it has just come to own from its snapshot.
public struct ShardedHandler<Inner: DeviceStateHandler>: ServiceHandler {
    private var inner: Inner
    private let membership: ShardMembership
    private let client: EtcdClient
    private let snapshots: String
    private let log: Log
    /// The snapshot revision of each device held in memory (0: none stored yet).
    private var held: [String: Int64] = [:]
    private var generation: UInt64 = 0

    /// `inner` as the instance `membership.instance`, its snapshots under
    /// `/monsterbus/snapshots/<service>/`.
    public init(_ inner: Inner, service: String, membership: ShardMembership, client: EtcdClient, log: Log) {
        self.inner = inner
        self.membership = membership
        self.client = client
        self.log = log
        snapshots = "/monsterbus/snapshots/\(service)/"
    }

    public var subscriptions: [String] { inner.subscriptions }

    public func accepts(_ type: MessageType) -> Bool { inner.accepts(type) }

    /// Only what this instance owns: a device's messages go to its owner; a message without a
    /// device to the owner of the empty id, so that one instance answers it.
    public func accepts(_ envelope: Envelope) -> Bool {
        guard inner.accepts(envelope.type) else { return false }
        let view = membership.view
        guard view.epoch != nil else { return false }
        return Rendezvous.owner(of: envelope.device ?? "", among: view.members) == membership.instance
    }

    public mutating func handle(_ envelope: Envelope) -> Reply {
        let view = membership.view
        guard let epoch = view.epoch else { return Reply([.error(.fenced, "this instance lost its membership; nothing was decided")]) }
        if view.generation != generation { dropMoved(view) }
        guard let device = envelope.device else { return inner.handle(envelope) }
        do {
            if held[device] == nil { try load(device) }
            let reply = inner.handle(envelope)
            try save(device, epoch: epoch)
            return reply
        } catch {
            // Not saved, so not decided: forget what was decided here; the snapshot has the truth.
            inner.drop(device)
            held.removeValue(forKey: device)
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
        for device in held.keys where Rendezvous.owner(of: device, among: view.members) != membership.instance {
            inner.drop(device)
            held.removeValue(forKey: device)
        }
    }

    /// Rebuilds `device` from its snapshot, if it has one.
    private mutating func load(_ device: String) throws {
        guard let snapshot = try client.get(snapshots + device) else {
            held[device] = 0
            return
        }
        let state = try JSONDecoder().decode(Inner.DeviceState.self, from: Data(snapshot.value))
        inner.restore(state, of: device)
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
        let value = try state.map { [UInt8](try JSONEncoder().encode($0)) }
        guard let revision = try client.write(
            snapshots + device, value, ifKey: membership.memberKey, wasCreatedAt: epoch, andKeyIsAt: known)
        else {
            throw EtcdError(description: "its snapshot was not stored: this instance's epoch \(epoch) is over or another instance wrote it")
        }
        if state == nil { held.removeValue(forKey: device) } else { held[device] = revision }
    }
}
