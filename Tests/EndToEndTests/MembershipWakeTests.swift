import Foundation
import Processes
import Testing
import TestTiers

/// A sharded instance with nothing to do follows its members when one is lost: the membership's
/// thread wakes the service's loop. Its heartbeat is a minute away and no message comes to it,
/// so nothing else would make it subscribe to the buckets it gains (of three members, those the
/// lost one and the third owned and stood by for).
@Suite(.serialized, .tags(.processes)) struct MembershipWakeTests {
    @Test func anIdleInstanceSubscribesToALostMembersBucketsAtOnce() throws {
        let etcd = try EtcdServer()
        let stack = try Stack(services: [])
        // pp-a's key outlives it by 4–6 s (a lease of 6 s, renewed every 2 s); pp-b's own
        // "holds nothing", said again for its lease's TTL (2 s) after it joined, is over by then.
        var instances: [String: ChildProcess] = [:]
        defer {
            for child in instances.values {
                child.signal(SIGKILL)
                _ = child.waitForExit(timeout: 5)
            }
        }
        for (name, ttl) in [("pp-a", 6), ("pp-b", 2), ("pp-c", 6)] {
            var environment = stack.environment
            environment["ETCD_ENDPOINTS"] = etcd.endpoint
            environment["INSTANCE_ID"] = name
            environment["SHARD_LEASE_TTL_SECONDS"] = "\(ttl)"
            environment["HEARTBEAT_INTERVAL_MS"] = "60000"
            instances[name] = try ChildProcess(
                name: name, executable: Products.url("presentation-policy").path, environment: environment,
                logPath: stack.folder.appendingPathComponent("\(name).log").path)
        }
        let a = try #require(instances["pp-a"]), b = try #require(instances["pp-b"])
        for child in instances.values {
            try #require(child.waitForStderr(timeout: 20) { $0.contains("shard members: pp-a, pp-b, pp-c;") }, "\(child.stderr)")
        }
        let mark = b.stderr.count
        a.signal(SIGKILL)
        _ = a.waitForExit(timeout: 5)
        #expect(b.waitForStderr(timeout: 20) { $0.dropFirst(mark).contains("shard members: pp-b, pp-c;") }, "\(b.stderr.suffix(2000))")
        #expect(b.waitForStderr(timeout: 10) { $0.dropFirst(mark).contains("subscriptions: +") }, "\(b.stderr.suffix(2000))")
    }
}
