import Foundation
import Processes
import Sharding
import Testing
import TestTiers

/// The etcd client against a real etcd: leases, keys with a lease, prefixes, fenced writes.
@Suite(.serialized, .tags(.processes)) struct EtcdClientTests {
    @Test func putGetListAndDelete() throws {
        let etcd = try EtcdServer()
        let client = try EtcdClient(endpoint: etcd.endpoint)
        try client.put("/t/a", Array("one".utf8))
        try client.put("/t/b", Array("two".utf8))
        try client.put("/u/c", Array("other".utf8))
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
        let first = try #require(try client.write("/snap/d", Array("1".utf8), ifKey: "/members/x", wasCreatedAt: epoch, andKeyIsAt: 0))
        #expect(try client.get("/snap/d")?.value == Array("1".utf8))
        #expect(try client.get("/snap/d")?.modRevision == first)
        // Another writer's revision: refused (two owners of one device cannot both write).
        #expect(try client.write("/snap/d", Array("x".utf8), ifKey: "/members/x", wasCreatedAt: epoch, andKeyIsAt: 0) == nil)
        #expect(try client.write("/snap/d", Array("1".utf8), ifKey: "/members/x", wasCreatedAt: epoch, andKeyIsAt: first) != nil)
        // The guard key deleted and created again: a new incarnation, the old epoch is fenced off.
        try client.delete("/members/x")
        try client.put("/members/x", [])
        #expect(try client.write("/snap/d", Array("2".utf8), ifKey: "/members/x", wasCreatedAt: epoch) == nil)
        #expect(try client.get("/snap/d")?.value == Array("1".utf8))
        #expect(try client.write("/snap/d", nil, ifKey: "/members/missing", wasCreatedAt: epoch) == nil)
        #expect(try client.get("/snap/d") != nil)
    }

    @Test func anEtcdThatIsNotThereIsAClearError() throws {
        let client = try EtcdClient(endpoint: "http://127.0.0.1:\(try freeTCPPort())", timeout: 1)
        #expect(throws: EtcdError.self) { try client.get("/x") }
        #expect(throws: EtcdError.self) { try EtcdClient(endpoint: "not a url") }
    }
}
