import Foundation
import Processes
import Sharding
import Testing
import TestTiers

/// A sharded instance that crashes and is started again at once under the same name (what a
/// StatefulSet's pod does: `INSTANCE_ID` from the pod's name) while its lease is still live: its
/// new incarnation holds nothing, so it must not take the old one's place as if nothing happened.
/// It joins once the old key is gone and the others have seen it go; meanwhile the others take its
/// devices over from their copies, then hand them to it. No acknowledged state is lost.
@Suite(.serialized, .tags(.processes)) struct RestartTests {
    @Test func anInstanceStartedAgainWithinItsLeaseJoinsAsANewMemberAndNoStateIsLost() throws {
        let etcd = try EtcdServer()
        let stack = try Stack(services: ["roster", "input-handling"])
        var instances = try stack.startSharded("presentation-policy", ["pp-a", "pp-b"], etcd: etcd.endpoint, leaseSeconds: 4)
        defer {
            for child in instances.values {
                child.signal(SIGKILL)
                _ = child.waitForExit(timeout: 5)
            }
        }
        try stack.waitUntilAnswering(["presentation-policy"])
        let device = try #require((0..<64).map { "restart-\($0)" }.first { shardOwner(of: $0, among: ["pp-a", "pp-b"]) == "pp-a" })
        func act(_ arguments: String...) throws -> CommandResult {
            try stack.gateway(["--json", "--timeout", "30", "--device", device, "--profile", "ipad"] + arguments, environment: ["GATEWAY_RETRY_MS": "300"])
        }
        let rotate = try act("rotate", "landscape")
        #expect(rotate.status == 0, "\(rotate.stdout) \(rotate.stderr)")
        let members = try EtcdClient(endpoint: etcd.endpoint)
        let key = "/monsterbus/members/presentation-policy/pp-a"
        let epoch = try #require(try members.get(key)).createRevision

        let a = try #require(instances["pp-a"])
        a.signal(SIGKILL)
        _ = a.waitForExit(timeout: 5)
        // Started again while its key (on the dead incarnation's lease of 4 s) is still there.
        #expect(try members.get(key) != nil)
        let again = try #require(try stack.startSharded("presentation-policy", ["pp-a"], etcd: etcd.endpoint, leaseSeconds: 4, waitingFor: ["pp-a", "pp-b"])["pp-a"])
        instances["pp-a"] = again
        #expect(again.waitForStderr(timeout: 30) { $0.contains("this instance pp-a at epoch") }, "\(again.stderr)")
        // A new incarnation: a new epoch, and the device as its last acknowledged action left it.
        #expect(try members.get(key).map(\.createRevision) != epoch)
        let describe = try act("describe")
        let layout = try #require(describe.body("layout.state"), "\(describe.stdout) \(describe.stderr)")
        let text = String(decoding: try JSONSerialization.data(withJSONObject: layout, options: [.sortedKeys]), as: UTF8.self)
        #expect(text.contains("landscape"), "\(describe.stdout)")
    }
}
