import Foundation
import Processes
import Sharding
import Testing
import TestTiers

/// The etcd client against a real etcd: leases, keys with a lease, prefixes, fenced writes; and
/// against a cluster of three that loses the member the client uses.
@Suite(.serialized, .tags(.processes)) struct EtcdClientTests {
    @Test func putGetListAndDelete() throws {
        let etcd = try EtcdServer()
        let client = try EtcdClient(endpoint: etcd.endpoint)
        try client.put("/t/a", Array("one".utf8))
        try client.put("/t/b", Array("two".utf8))
        try client.put("/u/c", Array("other".utf8))
        // Just past the prefix's range, which ends where "/t/" would with its last byte one more.
        try client.put("/t0", Array("next".utf8))
        #expect(try client.get("/t/a")?.value == Array("one".utf8))
        #expect(try client.get("/t/missing") == nil)
        #expect(try client.list(prefix: "/t/").map(\.key) == ["/t/a", "/t/b"])
        try client.delete("/t/a")
        #expect(try client.list(prefix: "/t/").map(\.key) == ["/t/b"])
    }

    @Test func aKeyOnALeaseGoesWithTheLease() throws {
        let etcd = try EtcdServer()
        let client = try EtcdClient(endpoint: etcd.endpoint)
        let lease = try client.grantLease(ttl: 5)
        try client.put("/members/x", Array("x".utf8), lease: lease)
        #expect(try client.keepAlive(lease: lease) > 0)
        #expect(try client.get("/members/x") != nil)
        try client.revoke(lease: lease)
        #expect(try client.get("/members/x") == nil)
        #expect(try client.keepAlive(lease: lease) <= 0)
    }

    @Test func aFencedWriteNeedsTheSameIncarnationOfItsGuardKey() throws {
        let etcd = try EtcdServer()
        let client = try EtcdClient(endpoint: etcd.endpoint)
        try client.put("/members/x", [])
        let epoch = try #require(try client.get("/members/x")).createRevision
        let first = try #require(try client.transaction([.created("/members/x", at: epoch), .modified("/snap/d", at: 0)], [.put("/snap/d", Array("1".utf8), lease: nil)]))
        #expect(try client.get("/snap/d")?.value == Array("1".utf8))
        #expect(try client.get("/snap/d")?.modRevision == first)
        // Another writer's revision: refused (two owners of one device cannot both write).
        #expect(try client.transaction([.created("/members/x", at: epoch), .modified("/snap/d", at: 0)], [.put("/snap/d", Array("x".utf8), lease: nil)]) == nil)
        // The same write again, as a retry whose first answer was lost sends it: refused, unchanged.
        #expect(try client.transaction([.created("/members/x", at: epoch), .modified("/snap/d", at: 0)], [.put("/snap/d", Array("1".utf8), lease: nil)]) == nil)
        #expect(try client.get("/snap/d")?.modRevision == first)
        #expect(try client.transaction([.created("/members/x", at: epoch), .modified("/snap/d", at: first)], [.put("/snap/d", Array("1".utf8), lease: nil)]) != nil)
        // The guard key deleted and created again: a new incarnation, the old epoch is fenced off.
        try client.delete("/members/x")
        try client.put("/members/x", [])
        #expect(try client.transaction([.created("/members/x", at: epoch)], [.put("/snap/d", Array("2".utf8), lease: nil)]) == nil)
        #expect(try client.get("/snap/d")?.value == Array("1".utf8))
        #expect(try client.transaction([.created("/members/missing", at: epoch)], [.delete("/snap/d")]) == nil)
        #expect(try client.get("/snap/d") != nil)
    }

    /// A port chosen free and taken by another process before etcd binds it: etcd starts again
    /// on other ports, rather than the test failing.
    @Test func anEtcdWhosePortWasTakenFirstStartsOnAnother() throws {
        // A port another process holds.
        let taken = try listenOnFreeTCPPort()
        defer { close(taken.descriptor) }
        var offered: [Int] = []
        let etcd = try EtcdServer(ports: {
            offered.append(offered.isEmpty ? taken.port : try freeTCPPort())
            return offered.last!
        })
        #expect(offered.count == 4, "\(offered)")
        #expect(!etcd.endpoint.hasSuffix(":\(taken.port)"))
        try EtcdClient(endpoint: etcd.endpoint).put("/t/a", Array("one".utf8))
        #expect(throws: ProcessError.self) { try EtcdServer(ports: { taken.port }) }
    }

    @Test func anEtcdThatIsNotThereIsAClearError() throws {
        let client = try EtcdClient(endpoint: "http://127.0.0.1:\(try freeTCPPort())", timeout: 1)
        #expect(throws: EtcdError.self) { try client.get("/x") }
        #expect(throws: EtcdError.self) { try EtcdClient(endpoint: "not a url") }
    }

    /// Three members started together; the one a client and a sharded presentation-policy use
    /// first killed with -9. It is a follower: what is shown is the move to another member; losing
    /// the leader adds an election, whose length is etcd's (0.3–0.6 s as `EtcdCluster` sets it,
    /// more on a split vote), and `EtcdHTTPTests` cover the "unavailable" answers given meanwhile.
    /// For twice the instance's lease TTL after the kill, every renewal and every action given
    /// to the instance succeeds; the lease's key is still there at its first
    /// incarnation, and the instance never stopped deciding nor changed its epoch.
    @Test func aClientAndAShardedInstanceCarryOnWhenTheirEtcdMemberIsKilled() throws {
        let cluster = try EtcdCluster(members: 3)
        let leader = try #require(try cluster.leader(), "no leader among \(cluster.endpoints)")
        let follower = (leader + 1) % cluster.endpoints.count
        let list = ([follower] + cluster.endpoints.indices.filter { $0 != follower }).map { cluster.endpoints[$0] }.joined(separator: ",")

        let stack = try Stack(services: ["roster", "input-handling"])
        var environment = stack.environment
        environment["ETCD_ENDPOINTS"] = list
        environment["INSTANCE_ID"] = "pp-a"
        let instance = try ChildProcess(
            name: "pp-a", executable: Products.url("presentation-policy").path, environment: environment,
            logPath: stack.folder.appendingPathComponent("pp-a.log").path)
        defer {
            instance.signal(SIGKILL)
            _ = instance.waitForExit(timeout: 5)
        }
        try #require(instance.waitForStderr(timeout: 20) { $0.contains("shard members: pp-a; this instance pp-a at epoch") }, "\(instance.stderr)")
        try stack.waitUntilAnswering(["presentation-policy"])
        let before = try stack.json("member-loss-0", "--profile", "ipad", "tap", "add")
        #expect(before.types.contains("presentation.presented"), "\(before.stdout) \(before.stderr)")

        // The client's lease, granted now: nothing renewed it while the stack started. Renewed
        // between taps, which a loaded machine can make slower than the instance's 3 s lease:
        // a TTL of its own that outlasts a slow tap.
        let client = try EtcdClient(endpoints: try EtcdEndpoint.list(list))
        let lease = try client.grantLease(ttl: 10)
        try client.put("/t/member", [], lease: lease)
        let epoch = try #require(try client.get("/t/member")).createRevision
        #expect(client.endpoint.url == cluster.endpoints[follower])

        let mark = instance.stderr.count
        cluster.kill(member: follower)
        let killed = Date()
        // For twice the instance's lease (SHARD_LEASE_TTL_SECONDS, 3 s by default), and until a
        // tap has been sent after one whole lease: however slow the machine, one tap shows that
        // the instance renewed its lease through the other members.
        let ttl = 3.0
        var devices = 0
        var tappedAfterALease = false
        while Date().timeIntervalSince(killed) < 2 * ttl || !tappedAfterALease {
            let at = Date().timeIntervalSince(killed)
            #expect(try client.keepAlive(lease: lease) > 0, "the lease expired \(at) s after the member")
            devices += 1
            let tap = try stack.json("member-loss-\(devices)", "--profile", "ipad", "tap", "add")
            #expect(tap.types.contains("presentation.presented"), "\(tap.stdout) \(tap.stderr) \(instance.stderr.dropFirst(mark))")
            tappedAfterALease = tappedAfterALease || at >= ttl
        }
        #expect(client.endpoint.url != cluster.endpoints[follower])
        #expect(try client.get("/t/member")?.createRevision == epoch)
        // A fenced write through the survivors, and its retry after a lost answer refused.
        let written = try #require(try client.transaction([.created("/t/member", at: epoch), .modified("/t/snap", at: 0)], [.put("/t/snap", Array("1".utf8), lease: nil)]))
        #expect(try client.transaction([.created("/t/member", at: epoch), .modified("/t/snap", at: 0)], [.put("/t/snap", Array("1".utf8), lease: nil)]) == nil)
        #expect(try client.get("/t/snap")?.modRevision == written)
        let since = String(instance.stderr.dropFirst(mark))
        #expect(!since.contains("stops deciding") && !since.contains("shard members:"), "\(since)")
    }
}
