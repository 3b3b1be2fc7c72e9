import Domain
import Foundation
import Processes
import RosterEtcd
import Sharding
import Testing
import TestTiers
import Wire

/// The roster's data in etcd (docs/scaling.md, The roster's one writer): two roster processes,
/// one writing; the writer killed with -9, the other takes over with every acknowledged change,
/// answers a retried action as a duplicate and goes on with the same sequence of revisions; a
/// writer whose epoch is over refuses to write and changes nothing.
@Suite(.serialized, .tags(.processes)) final class RosterOnEtcdTests {
    let etcd: EtcdServer
    let client: EtcdClient
    let stack: Stack
    var instances: [String: ChildProcess] = [:]
    let ttl = 2

    init() throws {
        etcd = try EtcdServer()
        client = try EtcdClient(endpoint: etcd.endpoint)
        stack = try Stack(services: [])
    }

    deinit {
        for child in instances.values {
            child.signal(SIGKILL)
            _ = child.waitForExit(timeout: 5)
        }
    }

    /// Starts the roster instance `name` on this stack and etcd; waits until it says it leads or
    /// stands by.
    @discardableResult
    func start(_ name: String, waitingFor line: String, leaseSeconds: Int? = nil) throws -> ChildProcess {
        var environment = stack.environment
        environment["ETCD_ENDPOINTS"] = etcd.endpoint
        environment["INSTANCE_ID"] = name
        environment["SHARD_LEASE_TTL_SECONDS"] = String(leaseSeconds ?? ttl)
        let child = try ChildProcess(
            name: name, executable: Products.url("roster").path, environment: environment,
            logPath: stack.folder.appendingPathComponent("\(name).log").path)
        instances[name] = child
        try #require(child.waitForStderr(timeout: 20) { $0.contains(line) }, "\(name): \(child.stderr)")
        return child
    }

    /// Sends `envelope` and returns the roster's acknowledgement of it and the error it published, if any.
    func deliver(_ envelope: Envelope, with client: TestClient) throws -> (ack: Ack?, error: ErrorBody?) {
        try client.bus.send(envelope)
        var error: ErrorBody?
        let answer = client.waitFor(timeout: 10) {
            if case .error(let body) = $0.body, body.offendingId == envelope.id { error = body }
            if case .ack(let ack) = $0.body { return ack.handledId == envelope.id && $0.service == MonsterBus.Service.roster }
            return false
        }
        if case .ack(let ack)? = answer?.body { return (ack, error) }
        return (nil, error)
    }

    /// The roster as etcd holds it.
    func stored() throws -> RosterSnapshot {
        let value = try #require(try client.get(RosterKeys.roster)).value
        return try JSONCoding.decode(RosterSnapshot.self, from: value)
    }

    func weapon(of name: String, in snapshot: RosterSnapshot) -> Weapon? {
        snapshot.monsters.first { $0.name == name }?.weapon
    }

    @Test func theOtherInstanceTakesOverWithEveryAcknowledgedChange() throws {
        let a = try start("roster-a", waitingFor: "roster-a leads /monsterbus/leader/roster at epoch")
        let bus = try TestClient(stack, subscriptions: ["ack", "error"])
        // Only roster-a runs yet: its answer says that it is on the bus.
        #expect(bus.waitForPath(to: [MonsterBus.Service.roster]))
        let b = try start("roster-b", waitingFor: "standing by: roster-a")
        let before = try stored()

        // Cat-Bot (the device's selection) starts with the Sword: Fire, then Smoke, acknowledged by
        // roster-a; acknowledged means in etcd.
        let fire = bus.bus.envelope(.weaponSelected(WeaponSelected(weapon: .fire)), device: "takeover")
        let smoke = bus.bus.envelope(.weaponSelected(WeaponSelected(weapon: .smoke)), device: "takeover")
        for change in [fire, smoke] {
            let answer = try deliver(change, with: bus)
            #expect(answer.ack?.duplicate == false && answer.ack?.emitted.count == 1, "\(a.stderr)")
        }
        #expect(try stored().revision == before.revision + 2)
        #expect(weapon(of: "Cat-Bot", in: try stored()) == .smoke)

        let mark = b.stderr.count
        let killed = Date()
        a.signal(SIGKILL)
        _ = a.waitForExit(timeout: 5)
        #expect(b.waitForStderr(timeout: 15) { $0.dropFirst(mark).contains("roster-b leads /monsterbus/leader/roster at epoch") }, "\(b.stderr)")
        let tookOver = Date().timeIntervalSince(killed)
        // The lease's TTL and a refresh (a third of it), with room for a busy machine.
        #expect(tookOver < 8, "roster-b took over \(tookOver) s after roster-a was killed")

        // Fire's message delivered again, as a publisher retrying after a lost acknowledgement
        // would: a duplicate, which does not undo Smoke.
        let again = try deliver(fire, with: bus)
        #expect(again.ack?.duplicate == true, "\(b.stderr)")
        #expect(b.waitForStderr(timeout: 5) { $0.contains("roster read from etcd at epoch") }, "\(b.stderr)")
        let snapshot = try #require(try stack.json("takeover", "roster").body("roster.snapshot"), "\(b.stderr)")
        #expect(snapshot["revision"] as? Int == Int(before.revision) + 2)
        #expect(snapshot["databaseId"] as? String == before.databaseId)
        let monsters = try #require(snapshot["monsters"] as? [[String: Any]])
        #expect(monsters.first { $0["name"] as? String == "Cat-Bot" }?["weapon"] as? String == Weapon.smoke.name)

        // A new change: acknowledged, the next revision of the same database.
        let ninja = bus.bus.envelope(.weaponSelected(WeaponSelected(weapon: .ninjaStar)), device: "takeover")
        let next = try deliver(ninja, with: bus)
        #expect(next.ack?.duplicate == false && next.ack?.emitted.count == 1, "\(b.stderr)")
        let end = try stored()
        #expect(end.revision == before.revision + 3 && end.databaseId == before.databaseId)
        #expect(weapon(of: "Cat-Bot", in: end) == .ninjaStar)

        // A backup is etcd's own snapshot: the gateway's (a SQLite file) is refused, saying so.
        let backup = try stack.gateway(["roster", "backup", "roster-copy.db"])
        #expect(backup.status != 0 && (backup.stdout + backup.stderr).contains("etcdctl snapshot save"), "\(backup.stdout) \(backup.stderr)")
    }

    /// A writer stopped with SIGTERM (a rolling update) gives the lead up once its last messages
    /// are sent; the other instance takes it at its next refresh (every 10 s with a lease of 30 s),
    /// not when the lease would have expired.
    @Test func aStoppedWriterGivesTheLeadUpAndTheOtherTakesItBeforeTheLeaseWouldExpire() throws {
        let a = try start("roster-a", waitingFor: "roster-a leads /monsterbus/leader/roster at epoch", leaseSeconds: 30)
        let bus = try TestClient(stack, subscriptions: ["ack", "error"])
        #expect(bus.waitForPath(to: [MonsterBus.Service.roster]))
        let b = try start("roster-b", waitingFor: "standing by: roster-a", leaseSeconds: 30)
        let fire = bus.bus.envelope(.weaponSelected(WeaponSelected(weapon: .fire)), device: "planned-stop")
        #expect(try deliver(fire, with: bus).ack?.duplicate == false, "\(a.stderr)")

        let mark = b.stderr.count
        a.signal(SIGTERM)
        #expect(a.waitForExit(timeout: 10) == 0, "\(a.stderr)")
        #expect(a.stderr.contains("roster-a left /monsterbus/leader/roster: lease"), "\(a.stderr)")
        #expect(b.waitForStderr(timeout: 20) { $0.dropFirst(mark).contains("roster-b leads /monsterbus/leader/roster at epoch") }, "\(b.stderr)")
        // The change roster-a acknowledged is there, and the next one is roster-b's.
        #expect(weapon(of: "Cat-Bot", in: try stored()) == .fire)
        let smoke = bus.bus.envelope(.weaponSelected(WeaponSelected(weapon: .smoke)), device: "planned-stop")
        #expect(try deliver(smoke, with: bus).ack?.duplicate == false, "\(b.stderr)")
        #expect(weapon(of: "Cat-Bot", in: try stored()) == .smoke)
    }

    @Test func aWriterWhoseEpochIsOverRefusesToWriteAndChangesNothing() throws {
        let a = try start("roster-a", waitingFor: "roster-a leads /monsterbus/leader/roster at epoch")
        let bus = try TestClient(stack, subscriptions: ["ack", "error", "roster.monster.updated"])
        #expect(bus.waitForPath(to: [MonsterBus.Service.roster]))
        let select = try deliver(bus.bus.envelope(.rosterSelect(RosterSelect(monster: "Dog-Bot")), device: "deposed"), with: bus)
        #expect(select.ack?.duplicate == false, "\(a.stderr)")
        let before = try #require(try client.get(RosterKeys.roster))

        // Another writer holds the leader key now (a new incarnation: a new epoch).
        try client.delete(RosterKeys.leader)
        try client.put(RosterKeys.leader, Array("usurper".utf8))
        let mark = a.stderr.count
        let fire = bus.bus.envelope(.weaponSelected(WeaponSelected(weapon: .fire)), device: "deposed")
        let answer = try deliver(fire, with: bus)
        #expect(answer.error?.code == "fenced", "\(String(describing: answer.error)) \(a.stderr.dropFirst(mark))")
        #expect(answer.ack?.emitted.count == 1, "only the error is published: \(String(describing: answer.ack))")
        #expect(try client.get(RosterKeys.roster) == before, "a deposed writer changed the roster")
        #expect(try client.get(RosterKeys.applied(fire.id)) == nil)
        // Logged before the answer is published; read from the pipe by another thread here.
        #expect(a.waitForStderr(timeout: 5) { $0.dropFirst(mark).contains("roster-a no longer leads") }, "\(a.stderr.dropFirst(mark))")
        #expect(try client.get(RosterKeys.leader)?.value == Array("usurper".utf8))

        // The usurper goes: roster-a leads again at a new epoch, reads the roster back, and
        // the change, sent again as a new message, is decided and stored at the next revision.
        try client.delete(RosterKeys.leader)
        #expect(a.waitForStderr(timeout: 10) { $0.dropFirst(mark).contains("roster-a leads /monsterbus/leader/roster at epoch") }, "\(a.stderr)")
        let retried = try deliver(bus.bus.envelope(.weaponSelected(WeaponSelected(weapon: .fire)), device: "deposed"), with: bus)
        #expect(retried.ack?.duplicate == false && retried.error == nil, "\(a.stderr.dropFirst(mark))")
        let after = try stored()
        let earlier = try JSONCoding.decode(RosterSnapshot.self, from: before.value)
        #expect(after.revision == earlier.revision + 1)
        #expect(weapon(of: "Dog-Bot", in: after) == .fire)
    }

    /// etcd not answering at start: StartStatusTests.
    @Test func theSQLiteDatabasesOptionsAreRefusedWithEtcd() throws {
        var environment = stack.environment
        environment["ETCD_ENDPOINTS"] = etcd.endpoint
        for (arguments, extra, named) in [(["--reset"], [:], "--reset"), (["--restore", "copy.db"], [:], "--restore"),
                                          ([], ["ROSTER_RESET": "1"], "ROSTER_RESET=1")] {
            let refused = try runToCompletion(Products.url("roster"), arguments, environment: environment.merging(extra) { $1 })
            #expect(refused.status == 2, "\(refused.stderr)")
            #expect(refused.stderr.contains("roster: \(named) is for the roster's SQLite database; with ETCD_ENDPOINTS"), "\(refused.stderr)")
        }
        #expect(try client.get(RosterKeys.leader) == nil, "a refused start took the leader key")
    }
}
