import Foundation
import Processes
import Sharding
import Testing
import TestTiers

/// How a sharded instance leaves and comes back without losing a device's acknowledged state
/// (docs/scaling.md, "A planned stop" and "Started again under the same name").
@Suite(.serialized, .tags(.processes)) struct InstanceLifecycleTests {
    /// pp-a and pp-b on one etcd and bus, sharing devices; killed with -9 at the end.
    final class Pair {
        let etcd: EtcdServer
        let stack: Stack
        var instances: [String: ChildProcess]
        let leaseSeconds: Int

        init(leaseSeconds: Int) throws {
            etcd = try EtcdServer()
            stack = try Stack(services: ["roster", "input-handling"])
            self.leaseSeconds = leaseSeconds
            instances = try stack.startSharded("presentation-policy", ["pp-a", "pp-b"], etcd: etcd.endpoint, leaseSeconds: leaseSeconds)
            try stack.waitUntilAnswering(["presentation-policy"])
        }

        deinit {
            for child in instances.values {
                child.signal(SIGKILL)
                _ = child.waitForExit(timeout: 5)
            }
        }

        /// A device pp-a owns while both are members.
        func deviceOfA() throws -> String {
            try #require((0..<64).map { "lifecycle-\($0)" }.first { shardOwner(of: $0, among: ["pp-a", "pp-b"]) == "pp-a" })
        }

        /// The gateway as `device`, retrying while devices move, for at most 20 s.
        func act(_ device: String, _ arguments: String...) throws -> CommandResult {
            try stack.gateway(["--json", "--timeout", "20", "--device", device, "--profile", "ipad"] + arguments, environment: ["GATEWAY_RETRY_MS": "300"])
        }

        /// `describe` of `device`, as sorted JSON.
        func state(_ device: String) throws -> String {
            let describe = try act(device, "describe")
            let layout = try #require(describe.body("layout.state"), "\(describe.stdout) \(describe.stderr)")
            return String(decoding: try JSONSerialization.data(withJSONObject: layout, options: [.sortedKeys]), as: UTF8.self)
        }
    }

    /// Stopped with SIGTERM (a rolling update), pp-a leaves once its last messages are sent: its
    /// lease revoked, pp-b takes its devices over at its next read of the members. The lease is a
    /// minute long: a device answering within the gateway's 20 s was taken over because pp-a left.
    @Test func aStoppedInstanceLeavesAndItsDevicesAnswerFromTheOtherWithTheirState() throws {
        let pair = try Pair(leaseSeconds: 60)
        let device = try pair.deviceOfA()
        // Acknowledged once pp-b, its standby, holds the state.
        let rotate = try pair.act(device, "rotate", "landscape")
        #expect(rotate.status == 0, "\(rotate.stdout) \(rotate.stderr)")

        let a = try #require(pair.instances["pp-a"]), b = try #require(pair.instances["pp-b"])
        let mark = b.stderr.count
        a.signal(SIGTERM)
        #expect(a.waitForExit(timeout: 10) == 0, "\(a.stderr.suffix(2000))")
        #expect(a.stderr.contains("left the members: lease"), "\(a.stderr.suffix(2000))")
        #expect(b.waitForStderr(timeout: 20) { $0.dropFirst(mark).contains("shard members: pp-b;") }, "\(b.stderr.suffix(2000))")
        #expect(try pair.state(device).contains("landscape"))
    }

    /// Killed and started again at once under the same name (a StatefulSet's pod restarted in
    /// place) while its key is still live, pp-a must not take the old incarnation's place as if
    /// nothing happened: it joins with a new epoch once the old key has gone, pp-b having taken
    /// its devices over and handing them back.
    @Test func anInstanceStartedAgainWithinItsLeaseJoinsAsANewMemberAndNoStateIsLost() throws {
        let pair = try Pair(leaseSeconds: 4)
        let device = try pair.deviceOfA()
        let rotate = try pair.act(device, "rotate", "landscape")
        #expect(rotate.status == 0, "\(rotate.stdout) \(rotate.stderr)")
        let members = try EtcdClient(endpoint: pair.etcd.endpoint)
        let key = "/monsterbus/members/presentation-policy/pp-a"
        let epoch = try #require(try members.get(key)).createRevision

        let a = try #require(pair.instances["pp-a"])
        a.signal(SIGKILL)
        _ = a.waitForExit(timeout: 5)
        // Started again while its key (on the dead incarnation's lease of 4 s) is still there.
        #expect(try members.get(key) != nil)
        let started = try pair.stack.startSharded(
            "presentation-policy", ["pp-a"], etcd: pair.etcd.endpoint, leaseSeconds: pair.leaseSeconds, waitingFor: ["pp-a", "pp-b"])
        let again = try #require(started["pp-a"])
        pair.instances["pp-a"] = again
        #expect(again.waitForStderr(timeout: 30) { $0.contains("this instance pp-a at epoch") }, "\(again.stderr)")
        #expect(try members.get(key).map(\.createRevision) != epoch)
        #expect(try pair.state(device).contains("landscape"))
    }
}
