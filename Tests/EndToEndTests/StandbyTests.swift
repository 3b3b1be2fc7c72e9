import Domain
import Foundation
import Processes
import Sharding
import Testing
import Wire
import TestTiers

/// Three sharded presentation-policy instances (docs/scaling.md, "Device state on a standby"):
/// no etcd write per action; a device's owner and then its new owner killed with -9 in turn,
/// and every device still has the state its last acknowledged action left — by the states its
/// standby held, deciding every action too, and by those a new standby was sent when the members
/// changed.
@Suite(.serialized, .tags(.processes)) final class StandbyTests {
    let etcd: EtcdServer
    let stack: Stack
    var instances: [String: ChildProcess] = [:]
    /// `pp-a`'s updates' topic is a prefix of `pp-ab`'s: it hears them, and must not take them.
    let names = ["pp-a", "pp-ab", "pp-c"]
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
            // One acknowledgement, the standby's, of its own decision of the action (a child of
            // the action's span, as the owner's messages are) — not the owner's answer to a
            // retry (marked duplicate).
            let (acks, others) = try spans(rotate)
            #expect(acks.count == 1 && others.isSuperset(of: acks) && !rotate.stdout.contains("\"duplicate\":true"), "\(device): \(rotate.stdout)")
        }
        // Not one etcd write for 48 actions: the member keys only, as they were (before a
        // standby is stopped below, which may outlive its lease on a loaded machine).
        #expect(try keys() == before)
        // Done only once the standby holds the result: while a device's standby is stopped, the
        // owner's decision comes and no acknowledgement does, nor does the gateway's retry get
        // one from the owner (which sends the state to the standby with it).
        // The standby is pp-ab, whose updates pp-a hears too (its subscription is their prefix)
        // and, owning nothing of the device, would acknowledge if it took them.
        let paused = try #require(devices.first { device in
            shardOwner(of: device, among: names) == "pp-c" && shardOwner(of: device, among: ["pp-a", "pp-ab"]) == "pp-ab"
        })
        let standby = try #require(instances["pp-ab"])
        standby.signal(SIGSTOP)
        let watcher = try TestClient(stack, subscriptions: [MessageType.ack.rawValue])
        #expect(watcher.waitForPath(to: ["presentation-policy"]))
        let unacknowledged = try stack.gateway(
            ["--json", "--timeout", "1", "--device", paused, "--profile", "ipad", "rotate", "portrait"], environment: ["GATEWAY_RETRY_MS": "100"])
        standby.signal(SIGCONT)
        let (none, decided) = try spans(unacknowledged)
        #expect(unacknowledged.status != 0 && none.isEmpty && !decided.isEmpty, "\(unacknowledged.stdout) \(unacknowledged.stderr)")
        // Once it runs again, the standby publishes its own, and the owner's of the retries, marked duplicate.
        let action = try #require(unacknowledged.envelopes.first { $0["service"] as? String == "presentation-policy" }?["correlationId"] as? String)
        var acknowledged = (first: false, repeated: false)
        while !(acknowledged.first && acknowledged.repeated),
              let envelope = watcher.waitFor(timeout: 10, { $0.correlationId == action && $0.service == "presentation-policy" }) {
            if case .ack(let ack) = envelope.body {
                if ack.duplicate { acknowledged.repeated = true } else { acknowledged.first = true }
            }
        }
        #expect(acknowledged.first && acknowledged.repeated)
        #expect(try act(paused, "rotate", "landscape").status == 0)
        // Nothing changed: one acknowledgement too, the standby's.
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

    /// A repeat of an action decided by a device's owner now lost reaches its heir, which decided
    /// it too, standing by, and answers with that decision (the same messages) — acknowledged
    /// only once the heir's own new standby holds the device: while that standby is stopped, no
    /// acknowledgement comes.
    @Test func anHeirsAnswerToARepeatWaitsForItsNewStandby() throws {
        let device = try #require(devices.first { shardOwner(of: $0, among: names) == "pp-a" })
        let survivors = ["pp-ab", "pp-c"]
        let heir = try #require(shardOwner(of: device, among: survivors))
        let standby = try #require(instances[survivors.first { $0 != heir } ?? ""])
        let client = try TestClient(stack, subscriptions: [MessageType.ack.rawValue])
        #expect(client.waitForPath(to: ["presentation-policy"]))
        let action = try EnvelopeCodec().frames(Envelope(
            id: "repeated-tap", correlationId: "repeated-tap", service: "test-client", device: device, seq: 1, time: Timestamp.now(),
            body: .tap(Tap(element: "add", profile: .ipad))))
        func acknowledgement(within seconds: TimeInterval) -> Ack? {
            guard let envelope = client.waitFor(timeout: seconds, { $0.correlationId == "repeated-tap" && $0.type == .ack }),
                  case .ack(let ack) = envelope.body else { return nil }
            return ack
        }
        try client.bus.sendRaw(action)
        let first = try #require(acknowledgement(within: 10))
        #expect(!first.duplicate)
        try kill("pp-a", leaving: survivors)
        standby.signal(SIGSTOP)
        // Sent again every 100 ms for a second, as the gateway retries: the first may come
        // before the bus has the heir's subscription to the device's bucket.
        var early: Ack?
        let until = Date().addingTimeInterval(1)
        while early == nil, Date() < until {
            try client.bus.sendRaw(action)
            early = acknowledgement(within: 0.1)
        }
        standby.signal(SIGCONT)
        #expect(early == nil, "acknowledged while the heir's standby was stopped: \(String(describing: early))")
        #expect(acknowledgement(within: 10)?.emitted == first.emitted)
    }

    /// Hostile updates sent to a device's standby as its owner would (unreadable, of the wrong
    /// shape, from a member at no epoch, with an acknowledgement of their own): each gets a
    /// clear error from the standby, which publishes nothing else and keeps its state, so that
    /// when the owner is lost the device has the state its actions left.
    @Test func aHostileUpdateGetsAClearErrorAndChangesNoCopy() throws {
        let device = try #require(devices.first)
        #expect(try act(device, "rotate", "landscape").status == 0)
        let before = try state(device)
        let owner = try #require(shardOwner(of: device, among: names))
        let standby = try #require(shardOwner(of: device, among: names.filter { $0 != owner }))
        let client = try TestClient(stack, subscriptions: ["error", "ack"])
        #expect(client.waitForPath(to: ["presentation-policy"]))
        let topic = Array("shard.replica/presentation-policy/\(standby)".utf8)
        func update(_ id: String, body: String) -> [UInt8] {
            Array(("{\"v\":1,\"type\":\"shard.replica\",\"device\":\"\(device)\",\"service\":\"presentation-policy\",\"correlationId\":\"\(id)\","
                + "\"body\":\(body),\"id\":\"\(id)\",\"seq\":1,\"time\":\"\(Timestamp.now())\"}").utf8)
        }
        let forged = Array("{\"state\":{\"orientation\":\"portrait\"},\"recent\":[]}".utf8)
        let fakeAck = try EnvelopeCodec().frames(Envelope(
            id: "forged-ack", correlationId: "forged-ack", service: "presentation-policy", device: device, seq: 1, time: Timestamp.now(),
            body: .ack(Ack(handled: "device.rotate", handledId: "forged", emitted: [], forwarded: []))))
        let cases: [(frames: [[UInt8]], code: String)] = [
            ([topic, Array("{not json".utf8), forged], "bad-json"),
            ([topic, update("hostile-u2", body: "{\"standby\":\"\(standby)\",\"owner\":\"\(owner)\",\"epoch\":\"one\",\"sequence\":1}"), forged], "bad-shape"),
            ([topic, update("hostile-u3", body: "{\"standby\":\"\(standby)\",\"owner\":\"pp-x\",\"epoch\":1,\"sequence\":99}"), forged] + fakeAck, "fenced"),
            ([topic, update("hostile-u4", body: "{\"standby\":\"\(standby)\",\"owner\":\"\(owner)\",\"epoch\":1,\"sequence\":99}"), forged, fakeAck[0]], "bad-frames"),
        ]
        // A forged acknowledgement would come before the error that follows it.
        var forgedAckSeen = false
        for hostile in cases {
            try client.bus.sendRaw(hostile.frames)
            let error = client.waitFor { envelope in
                if envelope.id == "forged-ack" { forgedAckSeen = true }
                guard case .error(let body) = envelope.body else { return false }
                return envelope.service == "presentation-policy" && body.code == hostile.code && !body.message.isEmpty
            }
            #expect(error != nil, "no \(hostile.code) error for \(String(decoding: hostile.frames[1], as: UTF8.self))")
        }
        #expect(!forgedAckSeen)
        try kill(owner, leaving: names.filter { $0 != owner })
        #expect(try state(device) == before)
    }
}
