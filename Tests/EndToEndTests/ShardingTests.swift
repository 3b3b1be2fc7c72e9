import Domain
import Foundation
import Processes
import Sharding
import Testing
import Wire
import TestTiers

/// Two presentation-policy instances sharing the devices through etcd (docs/scaling.md): each
/// action decided exactly once, and when one instance is killed with -9 its devices answer from
/// the other with their popover and orientation as they were.
@Suite(.serialized, .tags(.processes)) final class ShardingTests {
    let etcd: EtcdServer
    let stack: Stack
    var instances: [String: ChildProcess] = [:]
    let devices = (0..<40).map { "shard-dev-\($0)" }

    init() throws {
        etcd = try EtcdServer()
        stack = try Stack(services: ["roster", "input-handling"])
        instances = try stack.startShardedPolicies(["pp-a", "pp-b"], etcd: etcd.endpoint)
        // The one that joined second (the later epoch) takes its buckets once the other has seen
        // it and handed them over.
        let epoch = { (child: ChildProcess) in
            child.stderr.split(separator: "\n").lazy.compactMap { line in line.range(of: " at epoch ").flatMap { Int(line[$0.upperBound...]) } }.first ?? 0
        }
        let joiner = instances.values.max { epoch($0) < epoch($1) }
        guard let joiner, joiner.waitForStderr(timeout: 20, { $0.contains("has handed over its devices") }) else {
            throw StackError("the second instance was never handed its buckets: \(instances.values.map(\.stderr))")
        }
        try stack.waitUntilAnswering(["presentation-policy"])
    }

    deinit {
        for child in instances.values {
            child.signal(SIGKILL)
            _ = child.waitForExit(timeout: 5)
        }
    }

    /// How many `kind` messages `child` has decided so far (its span lines).
    func decided(_ child: ChildProcess, _ kind: String) -> Int {
        child.stderr.split(separator: "\n").filter { $0.contains("span: handled \(kind) ") }.count
    }

    /// `describe` of `device`: its orientation and what it presents, as presentation-policy answers.
    func state(_ device: String, retrying: Bool = false) throws -> String {
        let result = try stack.gateway(
            ["--json", "--timeout", retrying ? "20" : "5", "--device", device, "--profile", "ipad", "describe"],
            environment: retrying ? ["GATEWAY_RETRY_MS": "300"] : [:])
        #expect(result.status == 0, "\(device): \(result.stderr)")
        let body = try #require(result.body("layout.state"), "\(device): \(result.stdout)")
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    @Test func eachActionIsDecidedOnceAndAKilledInstancesDevicesKeepTheirState() throws {
        for device in devices {
            let add = try stack.json(device, "--profile", "ipad", "tap", "add")
            #expect(add.types.contains("presentation.presented"), "\(device): \(add.stdout) \(add.stderr)")
            let rotate = try stack.json(device, "--profile", "ipad", "rotate", "landscape")
            #expect(rotate.status == 0, "\(device): \(rotate.stderr)")
        }
        let a = try #require(instances["pp-a"]), b = try #require(instances["pp-b"])
        // Exactly once: every action decided by one instance, and the work divided.
        let taps = (decided(a, "device.tap"), decided(b, "device.tap"))
        let rotations = (decided(a, "device.rotate"), decided(b, "device.rotate"))
        #expect(taps.0 + taps.1 == devices.count, "\(taps)")
        #expect(rotations.0 + rotations.1 == devices.count, "\(rotations)")
        #expect(taps.0 > 0 && taps.1 > 0, "\(taps)")
        // Each instance subscribes to its own buckets only: it never received, let alone
        // ignored, an action of the other's (their heartbeats' counters, told apart by pid).
        let listener = try TestClient(stack, subscriptions: [MessageType.heartbeat.rawValue], service: "listener")
        var counters: [Int32: [String: UInt64]] = [:]
        let deadline = Date().addingTimeInterval(5)
        while counters.count < 2 || counters.values.contains(where: { ($0["handled"] ?? 0) < 2 * UInt64(devices.count) / 4 }),
              let envelope = listener.next(until: deadline) {
            if case .heartbeat(let beat) = envelope.body, beat.service == "presentation-policy" { counters[beat.pid] = beat.counters }
        }
        #expect(counters.count == 2, "\(counters)")
        for (pid, values) in counters {
            #expect(values["ignored"] ?? 0 == 0, "instance \(pid) received another instance's actions: \(values)")
            #expect(values["handled"] ?? 0 > 0, "\(values)")
        }

        var before: [String: String] = [:]
        for device in devices { before[device] = try state(device) }
        #expect(before.values.allSatisfy { $0.contains("landscape") && $0.contains("popover") }, "\(before)")

        // pp-a dies without a word; pp-b takes its devices once pp-a's lease expires.
        let mark = b.stderr.count
        let started = Date()
        a.signal(SIGKILL)
        _ = a.waitForExit(timeout: 5)
        #expect(b.waitForStderr(timeout: 10) { $0.dropFirst(mark).contains("shard members: pp-b;") }, "\(b.stderr.suffix(2000))")
        let moved = Date().timeIntervalSince(started)
        #expect(moved < 8, "devices moved after \(moved) s")

        let describedBefore = decided(b, "device.describe")
        for device in devices {
            let after = try state(device)
            #expect(after == before[device], "\(device) changed across the move: \(b.stderr.suffix(3000))")
            if after != before[device] { break }
        }
        #expect(decided(b, "device.describe") - describedBefore == devices.count)
        #expect(b.waitForStderr(timeout: 10) { $0.contains("device(s) from pp-a: ") })
    }

    @Test func theGatewayRetriesWithTheSameIdWhileADeviceMoves() throws {
        let a = try #require(instances["pp-a"]), b = try #require(instances["pp-b"])
        let orphans = devices.prefix(12).filter { shardOwner(of: $0, among: ["pp-a", "pp-b"]) == "pp-a" }
        try #require(!orphans.isEmpty)
        var before: [String: String] = [:]
        for device in orphans {
            _ = try stack.json(device, "--profile", "ipad", "tap", "add")
            before[device] = try state(device)
        }
        // Sent at once after the kill, before pp-b has taken pp-a's devices: the first send is
        // answered by nobody, a repeat with the same id by pp-b once it owns the device.
        a.signal(SIGKILL)
        _ = a.waitForExit(timeout: 5)
        let first = try #require(orphans.first)
        #expect(try state(first, retrying: true) == before[first])
        #expect(b.waitForStderr(timeout: 10) { $0.contains("device(s) from pp-a: ") })
        for device in orphans.dropFirst() {
            #expect(try state(device, retrying: true) == before[device])
        }
    }

    /// The standby decided the action too, and acknowledged the ids the owner published: as
    /// the heir it answers a retry with that decision, the same messages (the owner may have
    /// died before publishing them), and decides nothing again.
    @Test func aNewOwnerAnswersAnActionTheDeadOwnerDecidedWithTheSameMessages() throws {
        let a = try #require(instances["pp-a"]), b = try #require(instances["pp-b"])
        let device = try #require(devices.first { shardOwner(of: $0, among: ["pp-a", "pp-b"]) == "pp-a" })
        let client = try TestClient(stack, subscriptions: Topic.clientSubscriptions(address: "00000000deadbeef"), address: "00000000deadbeef")
        #expect(client.waitForPath(to: ["presentation-policy"], timeout: 15))
        let action = client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: device, replyTo: "00000000deadbeef")
        // The ids of the messages seen from presentation-policy while waiting.
        var seen: Set<String> = []
        func ack(from service: String, timeout: TimeInterval) -> Ack? {
            let answer = client.waitFor(timeout: timeout) {
                if $0.service == service { seen.insert($0.id) }
                if case .ack(let ack) = $0.body { return ack.handledId == action.id && $0.service == service }
                return false
            }
            if case .ack(let ack)? = answer?.body { return ack }
            return nil
        }
        func sees(_ id: String) -> Bool {
            seen.contains(id) || client.waitFor(timeout: 10) { $0.id == id && $0.service == "presentation-policy" } != nil
        }
        try client.bus.send(action)
        let first = try #require(ack(from: "presentation-policy", timeout: 10))
        #expect(!first.duplicate)
        let published = try #require(first.emitted.first)
        #expect(sees(published), "the owner's decision names the ids its standby acknowledged")
        seen = []
        let mark = b.stderr.count
        a.signal(SIGKILL)
        _ = a.waitForExit(timeout: 5)
        #expect(b.waitForStderr(timeout: 10) { $0.dropFirst(mark).contains("shard members: pp-b;") })
        // The same action again (a gateway's retry whose first answer was lost): pp-b answers
        // with the decision it made standing by.
        var repeated: Ack?
        for _ in 0..<20 where repeated == nil {
            try client.bus.send(action)
            repeated = ack(from: "presentation-policy", timeout: 0.5)
        }
        let again = try #require(repeated)
        #expect(again.emitted == first.emitted, "\(again)")
        #expect(sees(published))
        // Its log line and its ack race to this process (a pipe read by a thread, and the bus):
        // wait for the line rather than read it once.
        #expect(b.waitForStderr(timeout: 10) { $0.dropFirst(mark).contains("device(s) from pp-a: ") })
    }

    @Test func anInstanceWhoseMembershipEndsStopsDecidingAndJoinsAgainWithANewEpoch() throws {
        let a = try #require(instances["pp-a"]), b = try #require(instances["pp-b"])
        let epochs = { (text: String) in
            text.split(separator: "\n").compactMap { line in line.range(of: "this instance pp-a at epoch ").map { Int(line[$0.upperBound...]) } }
        }
        let first = try #require(epochs(a.stderr).last ?? nil)
        let device = try #require(devices.first { shardOwner(of: $0, among: ["pp-a", "pp-b"]) == "pp-a" })
        _ = try stack.json(device, "--profile", "ipad", "tap", "add")
        let before = try state(device)
        let (markA, markB) = (a.stderr.count, b.stderr.count)
        // Its key gone (as when its lease expires while it is cut off): it must stop, then come back.
        try EtcdClient(endpoint: etcd.endpoint).delete("/monsterbus/members/presentation-policy/pp-a")
        #expect(a.waitForStderr(timeout: 10) { $0.dropFirst(markA).contains("this instance pp-a is not a member") }, "\(a.stderr.suffix(2000))")
        #expect(a.waitForStderr(timeout: 10) { epochs(String($0.dropFirst(markA))).contains { $0 != nil && $0 != first } }, "\(a.stderr.suffix(2000))")
        #expect(b.waitForStderr(timeout: 10) { $0.dropFirst(markB).contains("shard members: pp-a, pp-b;") }, "\(b.stderr.suffix(2000))")
        // Asked at once: pp-b, still subscribed for a moment, or pp-a, still waiting for the
        // device, may refuse it as `not-owner`; the gateway sends it again until pp-a answers.
        #expect(try state(device, retrying: true) == before)
    }
}
