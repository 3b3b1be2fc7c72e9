import Foundation
import Processes
import Testing
import TestTiers

/// A sharded instance stopped with SIGTERM (a rolling update) leaves its members once its last
/// messages are sent: its lease revoked, the other instance takes its devices over from its
/// copies at its next read of the list. The lease here is a minute long, so a device that answers
/// within the gateway's 20 s was taken over because the instance left, not because its lease expired.
@Suite(.serialized, .tags(.processes)) struct PlannedStopTests {
    @Test func aStoppedInstanceLeavesAndItsDevicesAnswerFromTheOtherWithTheirState() throws {
        let etcd = try EtcdServer()
        let stack = try Stack(services: ["roster", "input-handling"])
        let instances = try stack.startSharded("presentation-policy", ["pp-a", "pp-b"], etcd: etcd.endpoint, leaseSeconds: 60)
        defer {
            for child in instances.values {
                child.signal(SIGKILL)
                _ = child.waitForExit(timeout: 5)
            }
        }
        try stack.waitUntilAnswering(["presentation-policy"])
        let device = try #require((0..<64).map { "planned-stop-\($0)" }.first { shardOwner(of: $0, among: ["pp-a", "pp-b"]) == "pp-a" })
        func act(_ arguments: String...) throws -> CommandResult {
            try stack.gateway(["--json", "--timeout", "20", "--device", device, "--profile", "ipad"] + arguments, environment: ["GATEWAY_RETRY_MS": "300"])
        }
        // Acknowledged once pp-b, its standby, holds the state.
        let rotate = try act("rotate", "landscape")
        #expect(rotate.status == 0, "\(rotate.stdout) \(rotate.stderr)")

        let a = try #require(instances["pp-a"]), b = try #require(instances["pp-b"])
        let mark = b.stderr.count
        a.signal(SIGTERM)
        #expect(a.waitForExit(timeout: 10) == 0, "\(a.stderr.suffix(2000))")
        #expect(a.stderr.contains("left the members: lease"), "\(a.stderr.suffix(2000))")
        #expect(b.waitForStderr(timeout: 20) { $0.dropFirst(mark).contains("shard members: pp-b;") }, "\(b.stderr.suffix(2000))")

        let describe = try act("describe")
        #expect(describe.status == 0, "\(describe.stdout) \(describe.stderr)")
        let layout = try #require(describe.body("layout.state"), "\(describe.stdout)")
        let text = String(decoding: try JSONSerialization.data(withJSONObject: layout, options: [.sortedKeys]), as: UTF8.self)
        #expect(text.contains("landscape"), "\(describe.stdout)")
    }
}
