import Domain
import ProcessSupport
import Runtime
import Sharding
import Testing
import Wire
import TestTiers

/// A sharded instance's rules without etcd or sockets: runtimes, each around a `ShardedHandler`
/// reading a membership the test sets, the frames one publishes handed to another.
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

    /// `pp-a`, owning the devices of `device()`, and `pp-ab`, standing by for them.
    func pair() -> (owner: Core, standby: Core, standbyMembers: Members) {
        let members = Members("pp-ab", view(["pp-a", "pp-ab"], of: "pp-ab"))
        return (core(Members("pp-a", view(["pp-a", "pp-ab"], of: "pp-a"))), core(members), members)
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

    /// The types of the messages in `frames`.
    func types(_ frames: [[[UInt8]]]) throws -> [MessageType] { try frames.map { try codec.decode(frames: $0).type } }

    /// The ids of the messages in `frames`.
    func ids(_ frames: [[[UInt8]]]) throws -> [String] { try frames.map { try codec.decode(frames: $0).id } }

    /// Whether `owner`'s decision of `frames` and `standby`'s acknowledgement of it name the same
    /// messages: the standby holds the same state.
    func agree(_ owner: inout Core, _ standby: inout Core, on frames: [[UInt8]]) throws -> Bool {
        let published = try self.frames(owner.received(frames, now: now))
        let acknowledged = try self.frames(standby.received(frames, now: now))
        guard acknowledged.count == 1, let ack = try ack(acknowledged[0]) else { return false }
        return try ack.emitted == ids(published)
    }

    /// Both decide an action of a device: the owner publishes the decision and no
    /// acknowledgement, the standby only the acknowledgement, listing the ids of the owner's
    /// messages (derived alike) and the hop passed on to input-handling.
    @Test func theOwnerPublishesAndItsStandbyAcknowledgesTheSameMessages() throws {
        let device = try device()
        var (owner, standby, _) = pair()
        let published = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))
        #expect(try types(published) == [.rotate, .forget])
        let acknowledged = try frames(standby.received(try rotate(device, .landscape, id: "r1"), now: now))
        try #require(acknowledged.count == 1)
        let ack = try #require(try ack(acknowledged[0]))
        #expect(try ack.emitted == ids(published) && !ack.duplicate)
        #expect(try ack.forwarded == [Forward(id: ids(published)[1], service: "input-handling")])
        // No sequence number of the owner's is taken by a message whose id names no sender.
        #expect(try published.map { try codec.decode(frames: $0).seq } == [0, 0])
        // Nothing changed: the same again, both answering as before.
        #expect(try agree(&owner, &standby, on: rotate(device, .landscape, id: "r2")))
    }

    /// A standby that missed an action (its subscription on its way, say) holds another history:
    /// its acknowledgement of the next one lists ids the owner never publishes, so the action
    /// stays incomplete. The client's retry reaches the owner as a repeat: the device's state
    /// goes to the standby with the owner's acknowledgement, which the standby takes and passes
    /// on; from then on the two agree.
    @Test func aStandbyThatMissedAnActionIsRepairedByTheRepeat() throws {
        let device = try device()
        var (owner, standby, _) = pair()
        _ = owner.received(try rotate(device, .landscape, id: "r1"), now: now)
        #expect(try !agree(&owner, &standby, on: rotate(device, .portrait, id: "r2")))
        let again = try frames(owner.received(try rotate(device, .portrait, id: "r2"), now: now))
        let update = try #require(again.last)
        #expect(update.count == 5 && update[0] == Array("shard.replica/presentation-policy/pp-ab".utf8))
        #expect(try ack(Array(update[3...]))?.duplicate == true)
        // The standby is silent on the repeat: the owner answers it.
        #expect(try frames(standby.received(try rotate(device, .portrait, id: "r2"), now: now)).isEmpty)
        #expect(try frames(standby.received(update, now: now)) == [Array(update[3...])])
        #expect(try agree(&owner, &standby, on: rotate(device, .landscape, id: "r3")))
    }

    /// A repeat of an action both decided alike: the standby's history is the owner's, so it
    /// takes nothing and passes the acknowledgement on.
    @Test func aRepeatBothDecidedAlikeIsPassedOnWithNothingTaken() throws {
        let device = try device()
        var (owner, standby, _) = pair()
        #expect(try agree(&owner, &standby, on: rotate(device, .landscape, id: "r1")))
        let update = try #require(try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now)).last)
        #expect(try frames(standby.received(update, now: now)) == [Array(update[3...])])
        #expect(try agree(&owner, &standby, on: rotate(device, .portrait, id: "r2")))
    }

    /// A standby that decided an action the owner's state does not hold yet does not take that
    /// state: it would undo the decision. Nothing is passed on; the later action's repeat, once
    /// the owner holds it, repairs it, and the first's then finds the same history.
    @Test func aRepairThatWouldUndoALaterDecisionIsNotTaken() throws {
        let device = try device()
        var (owner, standby, _) = pair()
        _ = owner.received(try rotate(device, .landscape, id: "r0"), now: now)
        #expect(try !agree(&owner, &standby, on: rotate(device, .portrait, id: "r1")))
        let first = try #require(try frames(owner.received(try rotate(device, .portrait, id: "r1"), now: now)).last)
        // r2 reaches the standby before the repair, and the owner after it.
        _ = standby.received(try rotate(device, .landscape, id: "r2"), now: now)
        #expect(try frames(standby.received(first, now: now)).isEmpty)
        _ = owner.received(try rotate(device, .landscape, id: "r2"), now: now)
        let second = try #require(try frames(owner.received(try rotate(device, .landscape, id: "r2"), now: now)).last)
        #expect(try frames(standby.received(second, now: now)) == [Array(second[3...])])
        let third = try #require(try frames(owner.received(try rotate(device, .portrait, id: "r1"), now: now)).last)
        #expect(try frames(standby.received(third, now: now)) == [Array(third[3...])])
        #expect(try agree(&owner, &standby, on: rotate(device, .portrait, id: "r3")))
    }

    /// A repair that names an older action carries the owner's state now: a standby whose
    /// decisions it holds takes it, though it decided more since that action.
    @Test func aRepairHoldingTheStandbysLaterDecisionsIsTaken() throws {
        let device = try device()
        var (owner, standby, _) = pair()
        _ = owner.received(try rotate(device, .landscape, id: "r0"), now: now)
        #expect(try !agree(&owner, &standby, on: rotate(device, .portrait, id: "r1")))
        #expect(try !agree(&owner, &standby, on: rotate(device, .landscape, id: "r2")))
        let update = try #require(try frames(owner.received(try rotate(device, .portrait, id: "r1"), now: now)).last)
        #expect(try frames(standby.received(update, now: now)) == [Array(update[3...])])
        #expect(try agree(&owner, &standby, on: rotate(device, .portrait, id: "r3")))
    }

    /// An older update from the owner after a newer one (through the other bus of a pair, say) is
    /// not taken: the newer state holds its action, whose acknowledgement is passed on.
    @Test func anOlderUpdateIsNotTakenOverANewerOne() throws {
        let device = try device()
        var (owner, standby, _) = pair()
        _ = owner.received(try rotate(device, .landscape, id: "r1"), now: now)
        let older = try #require(try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now)).last)
        _ = owner.received(try rotate(device, .portrait, id: "r2"), now: now)
        let newer = try #require(try frames(owner.received(try rotate(device, .portrait, id: "r2"), now: now)).last)
        #expect(try frames(standby.received(newer, now: now)) == [Array(newer[3...])])
        #expect(try frames(standby.received(older, now: now)) == [Array(older[3...])])
        #expect(try agree(&owner, &standby, on: rotate(device, .landscape, id: "r3")))
    }

    /// An action the owner refuses as too old (its clock later) and its standby decided: the
    /// refusal's acknowledgement goes by the standby with the owner's state, which the standby
    /// takes (the rotation undone there too). A standby that finds an action too old is silent.
    @Test func aTooOldRefusalGoesByTheStandbyWhichTakesTheOwnersState() throws {
        let device = try device()
        var (owner, standby, _) = pair()
        #expect(try agree(&owner, &standby, on: rotate(device, .portrait, id: "r0")))
        let later = RuntimeInstant(wall: Self.wall + 60, monotonic: 100)
        let refused = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: later))
        #expect(try types(refused.dropLast()) == [.error])
        let update = try #require(refused.last)
        try #require(update.count == 5)
        #expect(try ack(Array(update[3...]))?.emitted == ids(refused.dropLast()))
        var (_, late, _) = pair()
        _ = late.received(try rotate(device, .portrait, id: "r0"), now: now)
        #expect(try frames(late.received(try rotate(device, .landscape, id: "r1"), now: later)).isEmpty)
        _ = standby.received(try rotate(device, .landscape, id: "r1"), now: now)
        #expect(try frames(standby.received(update, now: now)) == [Array(update[3...])])
        // Both hold the device without the rotation: the next landscape changes it on both.
        #expect(try agree(&owner, &standby, on: rotate(device, .landscape, id: "r2")))
    }

    /// An action both find too old: the standby is silent, the owner refuses it through the
    /// standby, and their histories stay the same: the next action's ids agree.
    @Test func anActionBothFindTooOldLeavesThemAgreeing() throws {
        let device = try device()
        var (owner, standby, _) = pair()
        #expect(try agree(&owner, &standby, on: rotate(device, .portrait, id: "r0")))
        let later = RuntimeInstant(wall: Self.wall + 60, monotonic: 100)
        let refused = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: later))
        #expect(try frames(standby.received(try rotate(device, .landscape, id: "r1"), now: later)).isEmpty)
        let update = try #require(refused.last)
        #expect(try frames(standby.received(update, now: now)) == [Array(update[3...])])
        #expect(try agree(&owner, &standby, on: rotate(device, .landscape, id: "r2")))
    }

    /// When the owner leaves, its standby decides from the state it held: the device's next
    /// rotation to the same side changes nothing, and the lost owner's last action, sent again,
    /// is answered with the decision the standby made of it: the same messages, acknowledged
    /// by itself, having no standby of its own.
    @Test func whenTheOwnerLeavesItsStandbyAnswersFromItsOwnDecisions() throws {
        let device = try device()
        var (owner, standby, members) = pair()
        let published = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))
        let acknowledged = try frames(standby.received(try rotate(device, .landscape, id: "r1"), now: now))
        members.view = view(["pp-ab"], of: "pp-ab", generation: 2)
        // The loop's next pass sees the members change: nothing new to subscribe to, it stood by.
        #expect(!standby.tick(now: now).contains { if case .subscribe = $0 { true } else { false } })
        let same = try frames(standby.received(try rotate(device, .landscape, id: "r2"), now: now))
        #expect(try types(same) == [.unchanged, .ack])
        let repeated = try frames(standby.received(try rotate(device, .landscape, id: "r1"), now: now))
        try #require(repeated.count == 3)
        #expect(try ids(Array(repeated.prefix(2))) == ids(published))
        #expect(try ack(repeated[2])?.emitted == ack(acknowledged[0])?.emitted)
    }

    /// An update from a member at another epoch than this instance knows (an old incarnation) is
    /// refused with a clear error, and a deposed owner's late update never replaces its owner's.
    @Test func updatesFromAnOldEpochOrADeposedOwnerAreRefused() throws {
        let device = try device()
        var (owner, standby, _) = pair()
        _ = owner.received(try rotate(device, .landscape, id: "r1"), now: now)
        let update = try #require(try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now)).last)
        guard case .replica(var replica) = try codec.decode(frames: update).body else {
            Issue.record("not an update")
            return
        }
        func sent(_ replica: Replica) throws -> [[UInt8]] {
            try codec.frames(Envelope(
                id: "u-\(replica.sequence)", correlationId: "u", service: "presentation-policy", device: device, seq: 1,
                time: "2026-11-30T03:14:39.123Z", body: .replica(replica)))
        }
        func refusal(_ frames: [[[UInt8]]]) throws -> String? {
            guard frames.count == 1, case .error(let error) = try codec.decode(frames: frames[0]).body else { return nil }
            return error.code
        }
        replica.epoch = 9
        #expect(try refusal(frames(standby.received(try sent(replica), now: now))) == "fenced")
        // The owner's update taken, then pp-c's (a member that does not own the device) refused.
        replica.epoch = 10
        _ = standby.received(try sent(replica), now: now)
        let all = ["pp-a", "pp-ab", "pp-c"]
        var third = core(Members("pp-ab", view(all, of: "pp-ab")))
        _ = third.received(try sent(replica), now: now)
        replica.owner = "pp-c"
        replica.epoch = 12
        replica.sequence += 10
        replica.history = "0000000000000001"
        if ShardTable(members: all).owner(ofBucket: ShardTable.bucket(of: device)) == "pp-a" {
            #expect(try refusal(frames(third.received(try sent(replica), now: now))) == "fenced")
        }
    }

    /// Members that change while a message is handled are followed then, and the runtime asks
    /// for the new subscriptions right after that message (`changesOfMembers`), not after the
    /// batch: the bus sends the gained buckets' actions to their new owner or standby sooner.
    @Test func membersFollowedWhileHandlingAMessageGiveTheirSubscriptionsAtOnce() throws {
        let all = ["pp-a", "pp-ab", "pp-c"], after = ["pp-ab", "pp-c"]
        func roles(_ device: String, _ members: [String]) -> [String?] {
            let table = ShardTable(members: members), bucket = ShardTable.bucket(of: device)
            return [table.owner(ofBucket: bucket), table.standby(ofBucket: bucket)]
        }
        // A device pp-c neither owns nor stands by for until pp-a leaves, and one it owns throughout.
        let gained = try #require((0..<2000).map { "dev-\($0)" }.first { !roles($0, all).contains("pp-c") })
        let own = try #require((0..<2000).map { "dev-\($0)" }.first { roles($0, all)[0] == "pp-c" && roles($0, after)[0] == "pp-c" })
        let members = Members("pp-c", view(all, of: "pp-c"))
        var instance = core(members)
        #expect(instance.changesOfMembers().isEmpty)
        members.view = view(after, of: "pp-c", generation: 2)
        // Nothing handled yet: nothing followed, nothing to say without a look at the members.
        #expect(instance.changesOfMembers().isEmpty)
        _ = instance.received(try rotate(own, .portrait, id: "r2"), now: now)
        let changes = instance.changesOfMembers()
        #expect(changes.contains(.subscribe("device.rotate/\(Topic.bucketName(ShardTable.bucket(of: gained)))")))
        #expect(!changes.contains(.subscribe("device.rotate/\(Topic.bucketName(ShardTable.bucket(of: own)))")))
        #expect(instance.changesOfMembers().isEmpty)
        #expect(!instance.tick(now: now).contains { if case .subscribe = $0 { true } else { false } })
    }

    /// An update to `pp-ab` is not taken by `pp-a`, whose subscription (a prefix) hears it.
    @Test func anUpdateToAnInstanceWhoseNameExtendsThisOnesIsNotTaken() throws {
        let device = try device()
        var (owner, _, _) = pair()
        _ = owner.received(try rotate(device, .landscape, id: "r1"), now: now)
        let update = try #require(try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now)).last)
        var other = core(Members("pp-a", view(["pp-a", "pp-ab"], of: "pp-a")))
        #expect(try frames(other.received(update, now: now)).isEmpty)
        #expect(other.counters.ignored == 1)
    }

    /// An update whose state cannot be read is not taken, and its acknowledgement not passed on:
    /// the standby keeps what it held (and the action stays incomplete).
    @Test func anUpdateWithAnUnreadableStateIsNotTaken() throws {
        let device = try device()
        var (owner, standby, _) = pair()
        #expect(try agree(&owner, &standby, on: rotate(device, .portrait, id: "r0")))
        _ = owner.received(try rotate(device, .landscape, id: "r1"), now: now)
        var update = try #require(try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now)).last)
        update[2] = Array("{\"state\":".utf8)
        #expect(try frames(standby.received(update, now: now)).isEmpty)
        // Still without r1: the next landscape is a change here and unchanged at the owner.
        #expect(try !agree(&owner, &standby, on: rotate(device, .landscape, id: "r2")))
    }

    /// An owner seen at a new epoch under the same name (gone and started again between two
    /// reads of the members) holds nothing: its standby takes the device over and hands it to
    /// the new incarnation, which decides from that state.
    @Test func anOwnerStartedAgainUnderTheSameNameIsHandedItsDevicesBack() throws {
        let device = try device()
        let members = Members("pp-ab", view(["pp-a", "pp-ab"], of: "pp-ab"))
        var standby = core(members, handoverSeconds: 3)
        let ping = try #require(try frames(standby.tick(now: now)).first { try codec.decode(frames: $0).type == .ping })
        _ = standby.received(ping, now: now)
        _ = standby.received(try rotate(device, .landscape, id: "r1"), now: now)
        let again = ShardMembership.View(members: ["pp-a", "pp-ab"], epochs: ["pp-a": 20, "pp-ab": 11], epoch: 11, generation: 2)
        members.view = again
        let topic = Array("shard.replica/presentation-policy/pp-a".utf8)
        let toNewOwner = try frames(standby.tick(now: now)).filter { $0.first == topic }
        let handover = try #require(toNewOwner.first { $0.count == 3 && !$0[2].isEmpty })
        #expect(toNewOwner.contains { $0.count == 3 && $0[2].isEmpty })
        var heir = core(Members("pp-a", ShardMembership.View(members: again.members, epochs: again.epochs, epoch: 20, generation: 1)))
        _ = heir.received(handover, now: now)
        let same = try frames(heir.received(try rotate(device, .landscape, id: "r2"), now: now))
        #expect(try types(same) == [.unchanged])
        // Its standby, still holding the device, decided the same.
        let acknowledged = try frames(standby.received(try rotate(device, .landscape, id: "r2"), now: now))
        #expect(try acknowledged.count == 1 && ack(acknowledged[0])?.emitted == ids(same))
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

    /// A device handed over to a new member takes its previous owner's later handover while
    /// nothing was decided of it there, and none once an action was.
    @Test func aLateHandoverIsNotTakenOnceTheNewOwnerHasDecided() throws {
        let device = try #require((0..<500).map { "dev-\($0)" }.first {
            ShardTable(members: ["pp-a", "pp-c"]).owner(ofBucket: ShardTable.bucket(of: $0)) == "pp-c"
        })
        let members = Members("pp-a", view(["pp-a"], of: "pp-a"))
        var previous = core(members)
        let ping = try #require(try frames(previous.tick(now: now)).first { try codec.decode(frames: $0).type == .ping })
        _ = previous.received(ping, now: now)
        _ = previous.received(try rotate(device, .landscape, id: "r1"), now: now)
        members.view = view(["pp-a", "pp-c"], of: "pp-a", generation: 2)
        let topic = Array("shard.replica/presentation-policy/pp-c".utf8)
        let handover = try #require(try frames(previous.tick(now: now)).first { $0.first == topic && $0.count == 3 && !$0[2].isEmpty })
        guard case .replica(var late) = try codec.decode(frames: handover).body else {
            Issue.record("not an update")
            return
        }
        var heir = core(Members("pp-c", view(["pp-a", "pp-c"], of: "pp-c")))
        _ = heir.received(handover, now: now)
        // Its next rotation decided here: portrait.
        #expect(try types(frames(heir.received(try rotate(device, .portrait, id: "r2"), now: now))).first == .rotate)
        late.sequence += 1
        let frames = try codec.frames(Envelope(
            id: "late", correlationId: "late", service: "presentation-policy", device: device, seq: 9,
            time: "2026-11-30T03:14:39.123Z", body: .replica(late)))
        try #require(frames.count == 3 && frames[2] == handover[2])
        let answer = try self.frames(heir.received(frames, now: now))
        let said = try answer.map { try codec.decode(frames: $0) }
        #expect(answer.isEmpty, "\(said)")
        // Still portrait here: a portrait rotation changes nothing.
        #expect(try types(self.frames(heir.received(try rotate(device, .portrait, id: "r3"), now: now))).first == .unchanged)
    }

    /// An heir with a standby of its own answers a repeat of its lost owner's action with the
    /// decision it made standing by (the same messages), acknowledged through that standby, sent the state.
    @Test func anHeirsRepeatGoesByItsOwnStandby() throws {
        let all = ["pp-a", "pp-ab", "pp-c"]
        let device = try device(among: all)
        let table = ShardTable(members: all)
        let heirName = try #require(table.standby(ofBucket: ShardTable.bucket(of: device)))
        let next = try #require(all.first { $0 != "pp-a" && $0 != heirName })
        var owner = core(Members("pp-a", view(all, of: "pp-a")))
        let members = Members(heirName, view(all, of: heirName))
        var heir = core(members)
        let published = try frames(owner.received(try rotate(device, .landscape, id: "r1"), now: now))
        let acknowledged = try frames(heir.received(try rotate(device, .landscape, id: "r1"), now: now))
        members.view = view(all.filter { $0 != "pp-a" }, of: heirName, generation: 2)
        _ = heir.tick(now: now)
        let repeated = try frames(heir.received(try rotate(device, .landscape, id: "r1"), now: now))
        try #require(repeated.count == 3 && repeated[2].count == 5)
        #expect(try ids(Array(repeated.prefix(2))) == ids(published))
        #expect(repeated[2][0] == Array("shard.replica/presentation-policy/\(next)".utf8))
        #expect(try ack(Array(repeated[2][3...]))?.emitted == ack(acknowledged[0])?.emitted)
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
