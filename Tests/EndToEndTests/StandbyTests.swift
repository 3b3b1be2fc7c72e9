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
}
