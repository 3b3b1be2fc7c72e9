import Domain
import Foundation
import Processes
import Sharding
import Testing
import Wire
import TestTiers

/// Three sharded presentation-policy instances (docs/scaling.md, "Device state on a standby"):
/// no etcd write per action; a device's owner and then its new owner killed with -9 in turn,
/// and every device still has the state its last acknowledged action left — by the copies its
/// standby held, and by the states a new standby was sent when the members changed.
@Suite(.serialized, .tags(.processes)) final class StandbyTests {
    let etcd: EtcdServer
    let stack: Stack
    var instances: [String: ChildProcess] = [:]
    let names = ["pp-a", "pp-b", "pp-c"]
    let devices = (0..<24).map { "standby-dev-\($0)" }

    init() throws {
        etcd = try EtcdServer()
        stack = try Stack(services: ["roster", "input-handling"])
        instances = try stack.startShardedPolicies(names, etcd: etcd.endpoint)
        try stack.waitUntilAnswering(["presentation-policy"])
    }

    deinit {
        for child in instances.values {
            child.signal(SIGKILL)
            _ = child.waitForExit(timeout: 5)
        }
    }

    /// Runs the gateway for `device`, retrying while devices move (as a sharded deployment's gateway does).
    func act(_ device: String, _ arguments: String...) throws -> CommandResult {
        try stack.gateway(["--json", "--timeout", "20", "--device", device, "--profile", "ipad"] + arguments, environment: ["GATEWAY_RETRY_MS": "300"])
    }

    /// `describe` of `device`: its orientation and what it presents.
    func state(_ device: String) throws -> String {
        let result = try act(device, "describe")
        #expect(result.status == 0, "\(device): \(result.stderr)")
        let body = try #require(result.body("layout.state"), "\(device): \(result.stdout)")
        return String(decoding: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The parent spans of `result`'s messages from presentation-policy: its acknowledgements',
    /// and the others'. A message's parent span is the handling that published it.
    func spans(_ result: CommandResult) throws -> (acks: [String], others: Set<String>) {
        var acks: [String] = [], others: Set<String> = []
        for line in result.stdout.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["service"] as? String == "presentation-policy", let span = object["parentSpan"] as? String else { continue }
            if object["type"] as? String == "ack" { acks.append(span) } else { others.insert(span) }
        }
        return (acks, others)
    }

    /// Every key under `/monsterbus/` with its last change's revision.
    func keys() throws -> [String: Int64] {
        Dictionary(uniqueKeysWithValues: try EtcdClient(endpoint: etcd.endpoint).list(prefix: "/monsterbus/").map { ($0.key, $0.modRevision) })
    }

    /// Kills `name` with -9 and waits until every other live instance has seen it go.
    func kill(_ name: String, leaving survivors: [String]) throws {
        let child = try #require(instances[name])
        let marks = survivors.map { instances[$0]?.stderr.count ?? 0 }
        child.signal(SIGKILL)
        _ = child.waitForExit(timeout: 5)
        for (survivor, mark) in zip(survivors, marks) {
            let process = try #require(instances[survivor])
            #expect(process.waitForStderr(timeout: 15) { $0.dropFirst(mark).contains("shard members: \(survivors.joined(separator: ", "));") },
                    "\(survivor): \(process.stderr.suffix(2000))")
        }
    }

    @Test func everyDeviceKeepsItsStateAcrossTheLossOfItsOwnerAndThenOfItsNewOwner() throws {
        let before = try keys()
        for device in devices {
            let add = try act(device, "tap", "add")
            #expect(add.types.contains("presentation.presented"), "\(device): \(add.stdout) \(add.stderr)")
            let rotate = try act(device, "rotate", "landscape")
            #expect(rotate.status == 0, "\(device): \(rotate.stderr)")
            // Done only once the standby holds the state: one acknowledgement, the owner's, which
            // the standby published (another handling than the decision's: the update's).
            let (acks, others) = try spans(rotate)
            #expect(acks.count == 1 && !others.isEmpty && others.isDisjoint(with: acks), "\(device): \(rotate.stdout)")
        }
        // Not one etcd write for 48 actions: the member keys only, as they were.
        #expect(try keys() == before)
        // Nothing changed, nothing sent to the standby: the owner publishes its acknowledgement.
        let device = try #require(devices.first)
        for arguments in [["rotate", "landscape"], ["tap", "laser"]] {
            let same = try stack.gateway(["--json", "--timeout", "20", "--device", device, "--profile", "ipad"] + arguments, environment: ["GATEWAY_RETRY_MS": "300"])
            let (acks, others) = try spans(same)
            #expect(acks.count == 1 && others == Set(acks), "\(arguments): \(same.stdout)")
            #expect(same.types.contains("action.unchanged") || same.types.contains("error"), "\(arguments): \(same.stdout)")
        }

        // The owner of the first device dies; then the instance that took it over.
        let first = try #require(devices.first)
        let owner = try #require(shardOwner(of: first, among: names))
        let heir = try #require(shardOwner(of: first, among: names.filter { $0 != owner }))
        let last = try #require(names.first { $0 != owner && $0 != heir })
        try kill(owner, leaving: names.filter { $0 != owner })
        #expect(try state(first).contains("landscape"))
        // Half the devices change once more, through the two survivors: each change is done when
        // the other survivor holds it. The rest rely on what each survivor sent the other as its
        // new standby when the members changed (sent before any later change, on the same socket).
        var expected: [String: String] = [:]
        for (index, device) in devices.enumerated() {
            if index % 2 == 0 {
                let rotate = try act(device, "rotate", "portrait")
                #expect(rotate.status == 0, "\(device): \(rotate.stderr)")
            }
            expected[device] = try state(device)
            #expect(expected[device]?.contains(index % 2 == 0 ? "portrait" : "landscape") == true, "\(device): \(expected[device] ?? "")")
        }
        try kill(heir, leaving: [last])
        for device in devices {
            #expect(try state(device) == expected[device], "\(device) changed when \(heir) was lost: \(instances[last]?.stderr.suffix(3000) ?? "")")
        }
    }

    /// Actions waiting for an owner go to its standby bundled (`MessageBundle`): the owner
    /// stopped while they reach it, they are handled in one pass of its loop, their updates
    /// reach the standby in fewer messages than actions, and each is acknowledged once, by the
    /// standby, with what the owner decided for it.
    @Test func actionsHandledInOnePassReachTheStandbyBundledAndAreEachAcknowledgedOnce() throws {
        let sorted = names.sorted()
        let owner = try #require(shardOwner(of: devices[0], among: sorted))
        let standby = try #require(ShardTable(members: sorted).standby(ofBucket: ShardTable.bucket(of: devices[0])))
        let picked = Array((0..<4000).map { "bundled-\($0)" }.filter {
            let bucket = ShardTable.bucket(of: $0)
            return ShardTable(members: sorted).owner(ofBucket: bucket) == owner && ShardTable(members: sorted).standby(ofBucket: bucket) == standby
        }.prefix(8))
        try #require(picked.count == 8)
        let address = "00000000b0dd1e50"
        let client = try TestClient(stack, subscriptions: Topic.clientSubscriptions(address: address), address: address)
        #expect(client.waitForPath(to: ["presentation-policy"], timeout: 15))
        // What the bus forwards: the taps (once all are here, the owner's copies are on their
        // way too) and the updates for the standby, as ZeroMQ messages.
        let wire = try TestClient(stack, subscriptions: ["device.tap", "shard.replica/presentation-policy/\(standby)"], service: "listener")
        #expect(wire.waitForPath(to: ["presentation-policy"], timeout: 15))
        let process = try #require(instances[owner])
        process.signal(SIGSTOP)
        var taps: [String] = []
        for device in picked {
            taps.append(try client.publish(.tap(Tap(element: "add", profile: .ipad)), device: device).id)
        }
        var seen = 0
        let deadline = Date().addingTimeInterval(10)
        while seen < taps.count, Date() < deadline, let frames = try wire.bus.receiveFrames(timeoutMilliseconds: 1000) {
            if Topic.hasType(frames[0], .tap) { seen += 1 }
        }
        process.signal(SIGCONT)
        #expect(seen == taps.count)
        var acks: [String: [Ack]] = [:]
        while acks.values.map(\.count).reduce(0, +) < taps.count, let answer = client.next(until: Date().addingTimeInterval(10)) {
            if case .ack(let ack) = answer.body, answer.service == "presentation-policy" { acks[ack.handledId, default: []].append(ack) }
        }
        var messages = 0, updates = 0
        while updates < taps.count, let frames = try wire.bus.receiveFrames(timeoutMilliseconds: 5000) {
            guard Topic.hasType(frames[0], .replica) else { continue }
            messages += 1
            updates += frames.count - 1
        }
        #expect(updates == taps.count && messages < updates, "\(updates) updates in \(messages) messages")
        for tap in taps {
            #expect(acks[tap]?.count == 1 && acks[tap]?.first?.duplicate == false && acks[tap]?.first?.emitted.isEmpty == false, "\(tap): \(acks[tap] ?? [])")
        }
        // Nothing more, for none of them.
        #expect(client.waitFor(timeout: 0.5) { if case .ack = $0.body { return $0.service == "presentation-policy" }; return false } == nil)
    }
}
