import Domain
import ProcessSupport
import Runtime
import Sharding
import Testing
import Wire
import TestTiers

/// A sharded instance's rules without etcd or sockets: two runtimes, each around a
/// `ShardedHandler` reading a membership the test sets, the frames one publishes handed to the other.
@Suite(.tags(.unit))
struct ShardedHandlerTests {
    /// A device's orientation, its whole state: a rotation to the one it has changes nothing; a
    /// change is published and passes a message on to input-handling.
    struct Orientations: DeviceStateHandler {
        var states: [String: Rotate] = [:]
        let handledTypes: [MessageType] = [.rotate]
        mutating func handle(_ envelope: Envelope) -> Reply {
            guard case .rotate(let rotate) = envelope.body, let device = envelope.device else { return Reply([]) }
            if states[device]?.orientation == rotate.orientation { return Reply([.publish(.unchanged(Unchanged(reason: "same", message: "already so")))]) }
            states[device] = rotate
            return Reply([Effect(.rotate(rotate), device: device), .forward(.forget(Forget()), to: "input-handling")])
        }
        func state(of device: String) -> Rotate? { states[device] }
        mutating func restore(_ state: Rotate, of device: String) { states[device] = state }
        mutating func drop(_ device: String) { states[device] = nil }
    }

    /// The membership as the test says it is.
    final class Members: MembershipSource, @unchecked Sendable {
        let instance: String
        var view: ShardMembership.View
        /// Whether the handler joined the members (`start()`).
        var started = false
        init(_ instance: String, _ view: ShardMembership.View) { self.instance = instance; self.view = view }
        func start() { started = true }
    }

    typealias Core = RuntimeCore<ShardedHandler<Orientations>>

    /// 2026-11-30T03:14:39.123Z.
    static let wall = 1_796_008_479.123
    let epochs: [String: Int64] = ["pp-a": 10, "pp-ab": 11, "pp-c": 12]
    let codec = EnvelopeCodec()

    func view(_ members: [String], of instance: String, generation: UInt64 = 1) -> ShardMembership.View {
        ShardMembership.View(members: members, epochs: epochs.filter { members.contains($0.key) }, epoch: epochs[instance], generation: generation)
    }

    func core(_ members: Members, handoverSeconds: Double = 0) -> Core {
        let handler = ShardedHandler(
            Orientations(), service: "presentation-policy", membership: members, handoverSeconds: handoverSeconds,
            log: Log(service: "presentation-policy", level: .error), monotonic: { 100 })
        return RuntimeCore(
            handler: handler, settings: .init(name: "presentation-policy", pid: 1, config: BusConfig()),
            clock: RuntimeClock(wall: { ShardedHandlerTests.wall }, monotonic: { 100 })) { _, _, _ in }
    }

    var now: RuntimeInstant { RuntimeInstant(wall: Self.wall, monotonic: 100) }

    /// A device `pp-a` owns while `members` are (by default it and `pp-ab`, its standby).
    func device(among members: [String] = ["pp-a", "pp-ab"]) throws -> String {
        try #require((0..<500).map { "dev-\($0)" }.first {
            ShardTable(members: members).owner(ofBucket: ShardTable.bucket(of: $0)) == "pp-a"
        })
    }

    func rotate(_ device: String, _ orientation: Orientation, id: String) throws -> [[UInt8]] {
        try codec.frames(Envelope(
            id: id, correlationId: id, service: "gateway", device: device, seq: 1, time: "2026-11-30T03:14:39.123Z",
            body: .rotate(Rotate(orientation: orientation))))
    }

    /// The frames of each of `outgoing` (a message encoded as the loop would).
    func frames(_ outgoing: [Outgoing]) throws -> [[[UInt8]]] {
        try outgoing.map { item in
            switch item {
            case .frames(let frames): frames
            case .message(let envelope): try codec.frames(envelope)
            case .subscribe, .unsubscribe: []
            }
        }
    }

    func ack(_ frames: [[UInt8]]) throws -> Ack? {
        if case .ack(let ack) = try codec.decode(frames: frames).body { return ack }
        return nil
    }

    /// An action on a device owned here is decided here and acknowledged by its standby, which
    /// publishes the owner's acknowledgement as it came once it holds the state; the standby
    /// never decides the device's actions.
    @Test func theOwnerDecidesAndItsStandbyHoldsTheStateAndAcknowledges() throws {
        let device = try device()
        var owner = core(Members("pp-a", view(["pp-a", "pp-ab"], of: "pp-a")))
        var standby = core(Members("pp-ab", view(["pp-a", "pp-ab"], of: "pp-ab")))
        let sent = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))
        try #require(sent.count == 3 && sent[2].count == 5)
        #expect(sent[2][0] == Array("shard.replica/presentation-policy/pp-ab".utf8))
        let passedOn = try frames(standby.received(sent[2], now: now))
        #expect(passedOn == [Array(sent[2][3...])])
        #expect(try ack(passedOn[0])?.handledId == "r1")
        // Nothing changed: nothing for the standby, and the owner acknowledges it itself.
        let same = try frames(owner.received(try rotate(device, .landscape, id: "r3"), now: now))
        #expect(try same.map { try codec.decode(frames: $0).type } == [.unchanged, .ack])
        // The standby is not the device's owner: it does not decide its actions.
        #expect(try frames(standby.received(try rotate(device, .portrait, id: "r2"), now: now)).isEmpty)
        #expect(standby.counters.ignored == 1)
    }

    /// An update sent to `pp-ab` is not taken by `pp-a`, whose subscription (a prefix) hears it.
    @Test func anUpdateToAnInstanceWhoseNameExtendsThisOnesIsNotTaken() throws {
        let device = try device()
        var owner = core(Members("pp-a", view(["pp-a", "pp-ab"], of: "pp-a")))
        let update = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))[2]
        var other = core(Members("pp-a", view(["pp-a", "pp-ab"], of: "pp-a")))
        #expect(try frames(other.received(update, now: now)).isEmpty)
        #expect(other.counters.ignored == 1)
    }

    /// A repeat the owner answers from its delivery window goes by the standby too: the state
    /// again, and the first acknowledgement marked duplicate as the update's last frames.
    @Test func aRepeatGoesByTheStandbyWithTheStateAgain() throws {
        let device = try device()
        var owner = core(Members("pp-a", view(["pp-a", "pp-ab"], of: "pp-a")))
        let first = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))
        let again = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))
        try #require(again.count == 2 && again[1].count == 5)
        #expect(again[0] == first[1] && again[1][2] == first[2][2])
        var expected = try #require(try ack(Array(first[2][3...])))
        expected.duplicate = true
        #expect(try ack(Array(again[1][3...])) == expected)
        #expect(owner.counters.duplicates == 1 && owner.counters.handled == 1)
    }

    /// When the owner leaves, its standby decides from the state it held: the device's next
    /// rotation to the same side changes nothing, and a repeat of the owner's action is a
    /// duplicate: what the owner passed on goes again, and, with no standby of its own, it
    /// acknowledges the repeat itself.
    @Test func whenTheOwnerLeavesItsStandbyTakesTheDeviceOverWithItsState() throws {
        let device = try device()
        var owner = core(Members("pp-a", view(["pp-a", "pp-ab"], of: "pp-a")))
        let members = Members("pp-ab", view(["pp-a", "pp-ab"], of: "pp-ab"))
        var standby = core(members)
        let sent = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))
        _ = standby.received(sent[2], now: now)
        members.view = view(["pp-ab"], of: "pp-ab", generation: 2)
        // The loop's next pass sees the members change: the device's buckets are subscribed to.
        #expect(standby.tick(now: now).contains(.subscribe("device.rotate/\(Topic.bucketName(ShardTable.bucket(of: device)))")))
        let same = try frames(standby.received(try rotate(device, .landscape, id: "r2"), now: now))
        #expect(try same.map { try codec.decode(frames: $0).type } == [.unchanged, .ack])
        let repeated = try frames(standby.received(try rotate(device, .landscape, id: "r1"), now: now))
        try #require(repeated.count == 2)
        #expect(repeated[0] == sent[1])
        #expect(try ack(repeated[1])?.duplicate == true)
    }

    /// `pp-a` decides `r1` (landscape) and `r2` (portrait) of `device`; its standby `pp-ab`
    /// reads the updates of the first `read` of them, then follows `pp-a` leaving: the heir, and
    /// the frames each action sent (its update last).
    func ownerLeaves(of device: String, afterReading read: Int) throws -> (heir: Core, sent: [[[[UInt8]]]]) {
        var owner = core(Members("pp-a", view(["pp-a", "pp-ab"], of: "pp-a")))
        let members = Members("pp-ab", view(["pp-a", "pp-ab"], of: "pp-ab"))
        var heir = core(members)
        let sent = try [(Orientation.landscape, "r1"), (.portrait, "r2")].map { orientation, id in
            try frames(owner.received(try rotate(device, orientation, id: id), now: now))
        }
        try #require(sent.allSatisfy { $0.count == 3 && $0[2].count == 5 })
        for update in sent.prefix(read) { _ = heir.received(update[2], now: now) }
        members.view = view(["pp-ab"], of: "pp-ab", generation: 2)
        _ = heir.tick(now: now)
        return (heir, sent)
    }

    /// An owner that leaves (a planned stop gives its lease up at once) may have sent updates
    /// its standby has not read when it follows the members change: read after the takeover,
    /// the owner's later update is newer than the copy taken over and nothing was decided since,
    /// so it is taken and its acknowledgement passed on: the action is not decided again.
    @Test func anUpdateOnItsWayAsItsOwnerLeftIsTakenAfterTheTakeover() throws {
        let device = try device()
        var (heir, sent) = try ownerLeaves(of: device, afterReading: 1)
        #expect(try frames(heir.received(sent[1][2], now: now)) == [Array(sent[1][2][3...])])
        let same = try frames(heir.received(try rotate(device, .portrait, id: "r3"), now: now))
        #expect(try same.map { try codec.decode(frames: $0).type } == [.unchanged, .ack])
        // A retry of it is a duplicate, and what it passed on goes again.
        let repeated = try frames(heir.received(try rotate(device, .portrait, id: "r2"), now: now))
        try #require(repeated.count == 2)
        #expect(repeated[0] == sent[1][1])
        #expect(try ack(repeated[1])?.duplicate == true)
    }

    /// An update no newer than the copy taken over (the same one through the other bus of a
    /// pair, or an earlier one late) is not taken again: the state stays the newer one and no
    /// acknowledgement goes twice.
    @Test func anUpdateNoNewerThanTheCopyTakenOverIsNotTaken() throws {
        let device = try device()
        var (heir, sent) = try ownerLeaves(of: device, afterReading: 2)
        #expect(try frames(heir.received(sent[1][2], now: now)).isEmpty)
        #expect(try frames(heir.received(sent[0][2], now: now)).isEmpty)
        let same = try frames(heir.received(try rotate(device, .portrait, id: "r3"), now: now))
        #expect(try same.map { try codec.decode(frames: $0).type } == [.unchanged, .ack])
    }

    /// A late update whose state cannot be read is not taken: the state taken over stays, and
    /// its acknowledgement is not passed on (the retry is decided here).
    @Test func aLateUpdateWithAnUnreadableStateIsNotTaken() throws {
        let device = try device()
        var (heir, sent) = try ownerLeaves(of: device, afterReading: 1)
        var broken = sent[1][2]
        broken[2] = Array("{\"state\":".utf8)
        #expect(try frames(heir.received(broken, now: now)).isEmpty)
        let same = try frames(heir.received(try rotate(device, .landscape, id: "r3"), now: now))
        #expect(try same.map { try codec.decode(frames: $0).type } == [.unchanged, .ack])
    }

    /// Once the heir has decided an action of the device, a late update from its previous owner
    /// is not taken (the state here is newer) and its acknowledgement not passed on.
    @Test func aLateUpdateIsNotTakenOnceTheHeirHasDecided() throws {
        let device = try device()
        var (heir, sent) = try ownerLeaves(of: device, afterReading: 1)
        let decided = try frames(heir.received(try rotate(device, .portrait, id: "r3"), now: now))
        #expect(try decided.map { try codec.decode(frames: $0).type }.first == .rotate)
        #expect(try frames(heir.received(sent[1][2], now: now)).isEmpty)
        // Not taken: a retry of its action is decided here, not answered as a duplicate.
        let retried = try frames(heir.received(try rotate(device, .portrait, id: "r2"), now: now))
        #expect(try retried.map { try codec.decode(frames: $0).type } == [.unchanged, .ack])
        #expect(try ack(retried[1])?.duplicate == false)
    }

    /// An owner seen at a new epoch under the same name (gone and started again between two
    /// reads of the members) holds nothing: its standby takes the device over from its copy and
    /// hands it to the new incarnation, which decides from that state. Seeing no member come or
    /// go, the standby used to keep the copy and the device started anew.
    @Test func anOwnerStartedAgainUnderTheSameNameIsHandedItsDevicesBack() throws {
        let device = try device()
        var owner = core(Members("pp-a", view(["pp-a", "pp-ab"], of: "pp-a")))
        let members = Members("pp-ab", view(["pp-a", "pp-ab"], of: "pp-ab"))
        var standby = core(members, handoverSeconds: 3)
        let ping = try #require(try frames(standby.tick(now: now)).first { try codec.decode(frames: $0).type == .ping })
        _ = standby.received(ping, now: now)
        let sent = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))
        _ = standby.received(sent[2], now: now)
        let again = ShardMembership.View(members: ["pp-a", "pp-ab"], epochs: ["pp-a": 20, "pp-ab": 11], epoch: 11, generation: 2)
        members.view = again
        let topic = Array("shard.replica/presentation-policy/pp-a".utf8)
        let toNewOwner = try frames(standby.tick(now: now)).filter { $0.first == topic }
        let handover = try #require(toNewOwner.first { $0.count == 3 && !$0[2].isEmpty })
        #expect(toNewOwner.contains { $0.count == 3 && $0[2].isEmpty })
        var heir = core(Members("pp-a", ShardMembership.View(members: again.members, epochs: again.epochs, epoch: 20, generation: 1)))
        _ = heir.received(handover, now: now)
        let same = try frames(heir.received(try rotate(device, .landscape, id: "r2"), now: now))
        #expect(try same.map { try codec.decode(frames: $0).type }.first == .unchanged)
    }

    /// Members that change while a message is handled are followed then, and the runtime asks
    /// for the new subscriptions right after that message (`changesOfMembers`), not after the
    /// batch: the bus sends the gained buckets' retries to their new owner sooner.
    @Test func membersFollowedWhileHandlingAMessageGiveTheirSubscriptionsAtOnce() throws {
        let device = try device()
        let own = try #require((0..<500).map { "dev-\($0)" }.first {
            ShardTable(members: ["pp-a", "pp-ab"]).owner(ofBucket: ShardTable.bucket(of: $0)) == "pp-ab"
        })
        var owner = core(Members("pp-a", view(["pp-a", "pp-ab"], of: "pp-a")))
        let members = Members("pp-ab", view(["pp-a", "pp-ab"], of: "pp-ab"))
        var standby = core(members)
        _ = standby.received(try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))[2], now: now)
        #expect(standby.changesOfMembers().isEmpty)
        members.view = view(["pp-ab"], of: "pp-ab", generation: 2)
        // Nothing handled yet: nothing followed, nothing to say without a look at the members.
        #expect(standby.changesOfMembers().isEmpty)
        _ = standby.received(try rotate(own, .portrait, id: "r2"), now: now)
        let changes = standby.changesOfMembers()
        #expect(changes.contains(.subscribe("device.rotate/\(Topic.bucketName(ShardTable.bucket(of: device)))")))
        #expect(!changes.contains(.subscribe("device.rotate/\(Topic.bucketName(ShardTable.bucket(of: own)))")))
        #expect(standby.changesOfMembers().isEmpty)
        #expect(!standby.tick(now: now).contains { if case .subscribe = $0 { true } else { false } })
        // The device taken over is decided from the state it held.
        let same = try frames(standby.received(try rotate(device, .landscape, id: "r3"), now: now))
        #expect(try same.map { try codec.decode(frames: $0).type } == [.unchanged, .ack])
    }

    /// An instance that lost buckets to a new member says it has handed them over at once, and
    /// again a quarter second later while the new member may wait: the loop wakes for that
    /// (`nextWake`), before its next heartbeat.
    @Test func handedOverIsSaidAgainAtAQuarterSecondNotAtTheNextHeartbeat() throws {
        let members = Members("pp-a", view(["pp-a"], of: "pp-a"))
        var owner = core(members, handoverSeconds: 3)
        let ping = try #require(try frames(owner.tick(now: now)).first { try codec.decode(frames: $0).type == .ping })
        _ = owner.received(ping, now: now)
        #expect(owner.nextWake == 101)
        members.view = view(["pp-a", "pp-c"], of: "pp-a", generation: 2)
        let topic = Array("shard.replica/presentation-policy/pp-c".utf8)
        let said = try frames(owner.tick(now: now)).filter { $0.first == topic }
        #expect(said.count == 1 && said.first?[2].isEmpty == true)
        #expect(owner.nextWake == 100.25)
    }

    /// A device handed over to a new member goes with what its last action sent onward (from the
    /// old owner's delivery window): the new owner answers a repeat of that action with those
    /// messages again, the same frames, so that a next hop that missed them during the move is
    /// completed (before, it answered with its acknowledgement alone and the action never was).
    @Test func aDeviceHandedOverGoesWithWhatItsLastActionSentOnward() throws {
        let device = try #require((0..<500).map { "dev-\($0)" }.first {
            ShardTable(members: ["pp-a", "pp-c"]).owner(ofBucket: ShardTable.bucket(of: $0)) == "pp-c"
        })
        let members = Members("pp-a", view(["pp-a"], of: "pp-a"))
        var owner = core(members)
        // Ready (its own ping came back through the bus): only then does it join the members
        // and send updates of its own.
        let ping = try #require(try frames(owner.tick(now: now)).first { try codec.decode(frames: $0).type == .ping })
        #expect(!members.started)
        _ = owner.received(ping, now: now)
        #expect(members.started)
        let sent = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))
        try #require(try sent.map { try codec.decode(frames: $0).type } == [.rotate, .forget, .ack])
        members.view = view(["pp-a", "pp-c"], of: "pp-a", generation: 2)
        let topic = Array("shard.replica/presentation-policy/pp-c".utf8)
        let handover = try #require(try frames(owner.tick(now: now)).first { $0.first == topic && $0.count == 3 && !$0[2].isEmpty })
        guard case .replica(let update) = try codec.decode(frames: handover).body else {
            Issue.record("not an update")
            return
        }
        #expect(update.action == "r1" && update.onward?.map(\.message.bytes) == [sent[1][1]])
        var heir = core(Members("pp-c", view(["pp-a", "pp-c"], of: "pp-c")))
        _ = heir.received(handover, now: now)
        let repeated = try frames(heir.received(try rotate(device, .landscape, id: "r1"), now: now))
        try #require(repeated.count == 2 && repeated[1].count == 5, "\(repeated)")
        #expect(repeated[0] == sent[1])
        // Acknowledged by its own standby, pp-a: the state, and the acknowledgement marked duplicate.
        #expect(repeated[1][0] == Array("shard.replica/presentation-policy/pp-a".utf8))
        #expect(try ack(Array(repeated[1][3...]))?.duplicate == true)
    }

    /// An heir with a standby of its own answers a repeat of its lost owner's action through that
    /// standby: the state, and the acknowledgement marked duplicate as the update's last frames.
    @Test func anHeirsRepeatGoesByItsOwnStandby() throws {
        let all = ["pp-a", "pp-ab", "pp-c"]
        let device = try device(among: all)
        let table = ShardTable(members: all)
        let heirName = try #require(table.standby(ofBucket: ShardTable.bucket(of: device)))
        let next = try #require(all.first { $0 != "pp-a" && $0 != heirName })
        var owner = core(Members("pp-a", view(all, of: "pp-a")))
        let members = Members(heirName, view(all, of: heirName))
        var heir = core(members)
        let sent = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))
        _ = heir.received(sent[2], now: now)
        members.view = view(all.filter { $0 != "pp-a" }, of: heirName, generation: 2)
        _ = heir.tick(now: now)
        let repeated = try frames(heir.received(try rotate(device, .landscape, id: "r1"), now: now))
        try #require(repeated.count == 2 && repeated[1].count == 5)
        #expect(repeated[0] == sent[1])
        #expect(repeated[1][0] == Array("shard.replica/presentation-policy/\(next)".utf8))
        #expect(try ack(Array(repeated[1][3...]))?.duplicate == true)
    }

    /// An update that cannot be read is answered with the decoder's code, and nothing is taken.
    @Test func anUnreadableUpdateGetsTheDecodersCode() throws {
        var standby = core(Members("pp-ab", view(["pp-a", "pp-ab"], of: "pp-ab")))
        let answer = try frames(standby.received([Array("shard.replica/presentation-policy/pp-ab".utf8), Array("{not json".utf8), []], now: now))
        let error = try answer.map { try codec.decode(frames: $0) }
        guard error.count == 1, case .error(let body) = error[0].body else {
            Issue.record("not one error: \(error)")
            return
        }
        #expect(body.code == "bad-json" && standby.counters.errors == 1)
    }
}
