import Domain
import Foundation
import Processes
import Sharding
import Testing
import Wire
import TestTiers

/// A device whose presentation-policy owner and input-handling owner are lost together
/// (docs/scaling.md, "Device state on a standby"). input-handling's owner is stopped when the
/// rotation comes: the standbys of both services decide it too, and acknowledge it (the rotation,
/// and the `layout.changed` input-handling reads), so the action is done. Both owners are then
/// killed; the client's retry reaches presentation-policy's heir, which publishes its own decision
/// again, the same messages, and input-handling's heir answers the layout it decided standing by.
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
        // Every message the action caused, in the order it came.
        var seen: [Envelope] = []
        func waitUntil(timeout: TimeInterval, _ done: ([Envelope]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while !done(seen) {
                guard let next = client.next(until: deadline) else { return false }
                if next.correlationId == action.id { seen.append(next) }
            }
            return true
        }
        func ack(of id: String, from service: String) -> Ack? {
            for envelope in seen.reversed() where envelope.service == service {
                if case .ack(let ack) = envelope.body, ack.handledId == id { return ack }
            }
            return nil
        }
        // input-handling's owner stops before the layout reaches it: its standby reads it.
        ih.signal(SIGSTOP)
        try client.bus.send(action)
        var layoutId = ""
        #expect(waitUntil(timeout: 10) { messages in
            guard let layout = messages.first(where: { $0.type == .deviceLayout }) else { return false }
            layoutId = layout.id
            return ack(of: action.id, from: "presentation-policy") != nil && ack(of: layout.id, from: "input-handling") != nil
        })
        let decided = try #require(ack(of: action.id, from: "presentation-policy"))
        #expect(decided.emitted.contains(layoutId) && !decided.duplicate)
        // Both owners lost at once.
        let marks = (ppHeir.stderr.count, ihHeir.stderr.count)
        pp.signal(SIGKILL)
        ih.signal(SIGKILL)
        _ = pp.waitForExit(timeout: 5)
        _ = ih.waitForExit(timeout: 5)
        #expect(ppHeir.waitForStderr(timeout: 15) { $0.dropFirst(marks.0).contains("shard members: pp-b;") })
        #expect(ihHeir.waitForStderr(timeout: 15) { $0.dropFirst(marks.1).contains("shard members: ih-b;") })
        // The client's retry: each heir answers with the decision it made standing by.
        seen = []
        var answered = false
        for _ in 0..<20 where !answered {
            try client.bus.send(action)
            answered = waitUntil(timeout: 0.5) { _ in ack(of: action.id, from: "presentation-policy") != nil && ack(of: layoutId, from: "input-handling") != nil }
        }
        #expect(answered, "\(ihHeir.stderr.suffix(2000))")
        #expect(ack(of: action.id, from: "presentation-policy")?.emitted == decided.emitted)
        #expect(seen.contains { $0.id == layoutId && $0.service == "presentation-policy" })
        let completed = try #require(ack(of: layoutId, from: "input-handling"))
        #expect(!completed.duplicate)
    }
}
