import Domain
import Foundation
import Processes
import Sharding
import Testing
import Wire
import TestTiers

/// A device whose presentation-policy owner and input-handling owner are lost together
/// (docs/scaling.md, "Device state on a standby"): the owner had decided a rotation and its
/// standby held it, but input-handling's owner never handled the `layout.changed` it read. The
/// client's retry reaches presentation-policy's heir, which answers it as a duplicate and
/// publishes that `layout.changed` again, as its previous owner sent it, so that
/// input-handling's heir completes the hop.
@Suite(.serialized, .tags(.processes)) final class OnwardTests {
    let etcd: EtcdServer
    let stack: Stack
    var instances: [String: ChildProcess] = [:]

    init() throws {
        etcd = try EtcdServer()
        stack = try Stack(services: ["roster"])
        instances = try stack.startShardedPolicies(["pp-a", "pp-b"], etcd: etcd.endpoint)
            .merging(try stack.startSharded("input-handling", ["ih-a", "ih-b"], etcd: etcd.endpoint)) { first, _ in first }
    }

    deinit {
        for child in instances.values {
            child.signal(SIGKILL)
            _ = child.waitForExit(timeout: 5)
        }
    }

    @Test func anHeirsRepeatPublishesAgainWhatTheLostOwnerSentOnward() throws {
        let device = try #require((0..<200).map { "onward-dev-\($0)" }.first {
            shardOwner(of: $0, among: ["pp-a", "pp-b"]) == "pp-a" && shardOwner(of: $0, among: ["ih-a", "ih-b"]) == "ih-a"
        })
        let (pp, ih) = (try #require(instances["pp-a"]), try #require(instances["ih-a"]))
        let (ppHeir, ihHeir) = (try #require(instances["pp-b"]), try #require(instances["ih-b"]))
        // The device as both services hold it (and their standbys).
        let warm = try stack.gateway(["--json", "--timeout", "20", "--device", device, "--profile", "ipad", "rotate", "landscape"], environment: ["GATEWAY_RETRY_MS": "300"])
        try #require(warm.status == 0, "\(warm.stdout) \(warm.stderr)")

        let address = "00000000feedf00d"
        let client = try TestClient(stack, subscriptions: Topic.clientSubscriptions(address: address), address: address)
        #expect(client.waitForPath(to: ["presentation-policy", "input-handling"], timeout: 15))
        let action = client.bus.envelope(.rotate(Rotate(orientation: .portrait)), device: device, replyTo: address)
        func ack(of id: String, from service: String, timeout: TimeInterval) -> Ack? {
            let answer = client.waitFor(timeout: timeout) {
                if case .ack(let ack) = $0.body { return ack.handledId == id && $0.service == service }
                return false
            }
            if case .ack(let ack)? = answer?.body { return ack }
            return nil
        }
        // input-handling's owner stops before the layout reaches it; presentation-policy's
        // decision is held by its standby, which acknowledges it.
        ih.signal(SIGSTOP)
        try client.bus.send(action)
        // (The layout comes first: the acknowledgement comes from the standby, after it.)
        let layout = try #require(client.waitFor(timeout: 10) { $0.type == .deviceLayout && $0.correlationId == action.id })
        let decided = try #require(ack(of: action.id, from: "presentation-policy", timeout: 10))
        #expect(decided.emitted.contains(layout.id) && !decided.duplicate)
        // Both owners lost at once.
        let marks = (ppHeir.stderr.count, ihHeir.stderr.count)
        pp.signal(SIGKILL)
        ih.signal(SIGKILL)
        _ = pp.waitForExit(timeout: 5)
        _ = ih.waitForExit(timeout: 5)
        #expect(ppHeir.waitForStderr(timeout: 15) { $0.dropFirst(marks.0).contains("shard members: pp-b;") })
        #expect(ihHeir.waitForStderr(timeout: 15) { $0.dropFirst(marks.1).contains("shard members: ih-b;") })
        // The client's retry: input-handling's heir reads the layout, published again by
        // presentation-policy's heir, and decides it (it never had).
        var read: Ack?
        for _ in 0..<20 where read == nil {
            try client.bus.send(action)
            read = ack(of: layout.id, from: "input-handling", timeout: 0.5)
        }
        let completed = try #require(read, "input-handling never acknowledged \(layout.id): \(ihHeir.stderr.suffix(2000))")
        #expect(!completed.duplicate)
    }
}
