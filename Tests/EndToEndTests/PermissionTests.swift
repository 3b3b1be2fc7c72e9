import Domain
import Foundation
import ProcessSupport
import Testing
import Wire
import ZeroMQ
import ZeroMQTransport
import TestTiers

/// A client of the bus with a certificate of its own (its role in the metadata), seeing raw
/// frames. Owned by the test's thread.
final class RoleClient {
    let bus: BusConnection
    let name: String

    /// Connects with `certificate` (secret) to `stack`'s bus, subscribed to `subscriptions`.
    init(_ stack: Stack, context: ZMQContext, certificate: String, name: String, subscriptions: [String] = []) throws {
        var config = try BusConfig.fromEnvironment(stack.environment, component: MonsterBus.Service.gateway)
        let keys = try Certificate.load(certificate)
        config.curve = CurveSettings(keys: keys.keyPair!, serverKey: config.curve!.serverKey, certificatePath: certificate)
        bus = try BusConnection(context: context, config: config, service: name, subscriptions: subscriptions, lingerMilliseconds: 0)
        self.name = name
    }

    deinit { bus.close() }

    /// A message of `type` claiming `service`, with id `id` (the bus reads only the header).
    static func frames(_ type: String, service: String, id: String) -> [[UInt8]] {
        let json = #"{"v":1,"type":"\#(type)","id":"\#(id)","correlationId":"\#(id)","service":"\#(service)","seq":1,"time":"2026-11-30T00:00:00.000Z","body":{}}"#
        return [Array(type.utf8), Array(json.utf8)]
    }
}

/// What became of a message sent through the bus, as a witness subscribed to everything saw it.
enum Outcome: Equatable {
    case passed
    case refused(String)
}

/// Watches everything on the bus and tells, for a message id, whether it passed or the bus
/// refused it (its `error` names the id).
final class Witness {
    let client: RoleClient
    private var outcomes: [String: Outcome] = [:]

    init(_ client: RoleClient) { self.client = client }

    /// The outcome of `id`, waiting up to `timeout` seconds; nil if neither came.
    func outcome(of id: String, timeout: TimeInterval = 5) throws -> Outcome? {
        let deadline = Date().addingTimeInterval(timeout)
        while outcomes[id] == nil, Date() < deadline {
            guard let frames = try client.bus.receiveFrames(timeoutMilliseconds: max(1, Int(deadline.timeIntervalSinceNow * 1000))) else { break }
            record(frames)
        }
        return outcomes[id]
    }

    /// Notes what `frames` say about any message.
    func record(_ frames: [[UInt8]]) {
        if let envelope = try? client.bus.codec.decode(frames: frames), case .error(let error) = envelope.body,
           envelope.service == "bus", let offending = error.offendingId {
            outcomes[offending] = .refused(error.code)
            return
        }
        guard frames.count == 2, let view = frames[1].withUnsafeBytes({ EnvelopeView($0, parts: .id) }), let id = view.id else { return }
        outcomes[String(decoding: frames[1][id.range], as: UTF8.self)] = .passed
    }
}

/// The permission table enforced by the real bus on CURVE identities: for every role and every
/// type of the vocabulary only the permitted messages pass, a forged `service` never does, and
/// each refusal is answered with an `error` that names the message.
@Suite(.serialized, .tags(.processes)) final class PermissionTests {
    let keys: KeysFolder
    let stack: Stack
    let context: ZMQContext
    /// A certificate per role (the bus's own for `bus`).
    var certificates: [Role: String] = [:]

    init() throws {
        keys = try KeysFolder()
        for role in Role.allCases where role != .bus {
            let name = "as-\(role.rawValue)"
            let certificate = try Certificate.generate(metadata: ["name": name, "role": role.rawValue])
            try certificate.save(in: keys.root.path, name: name)
            try certificate.publicCertificate.save(in: keys.path + "/authorized", name: name)
            certificates[role] = keys.root.path + "/\(name).key_secret"
        }
        certificates[.bus] = keys.path + "/bus.key_secret"
        stack = try Stack(transport: .tcp, services: [], environment: ["BUS_KEYS_DIR": keys.path])
        context = try ZMQContext()
    }

    /// What each role may publish: the publishers declared for each type (`MessageType.spec`),
    /// which the bus process must enforce over CURVE.
    static let expected: [Role: Set<MessageType>] = Dictionary(uniqueKeysWithValues: Role.allCases.map { role in
        (role, Set(MessageType.allCases.filter { $0.spec.publishers.contains(role) }))
    })

    /// Sends `frames` from `client` until the witness sees what became of message `id` (the
    /// first sends may go before the client's connection is up).
    func send(_ frames: [[UInt8]], id: String, from client: RoleClient, witness: Witness) throws -> Outcome? {
        for _ in 0..<50 {
            try client.bus.sendRaw(frames)
            if let outcome = try witness.outcome(of: id, timeout: 0.2) { return outcome }
        }
        return nil
    }

    @Test func everyRoleMayPublishOnlyItsTopicsAsItself() throws {
        let witness = Witness(try RoleClient(stack, context: context, certificate: certificates[.observer]!, name: "witness", subscriptions: [""]))
        var passed: [Role: Set<MessageType>] = [:]
        for role in Role.allCases {
            let client = try RoleClient(stack, context: context, certificate: certificates[role]!, name: "\(role.rawValue)-client")
            let service = role.isComponent ? role.rawValue : "a-\(role.rawValue)-tool"
            for type in MessageType.allCases {
                let id = "\(role.rawValue)/\(type.rawValue)"
                let outcome = try send(RoleClient.frames(type.rawValue, service: service, id: id), id: id, from: client, witness: witness)
                switch outcome {
                case .passed: passed[role, default: []].insert(type)
                case .refused(let code): #expect(code == "forbidden-topic", "\(id)")
                case nil: Issue.record("\(id): neither passed nor refused")
                }
            }
            #expect(passed[role, default: []] == Self.expected[role], "\(role)")
        }
    }

    @Test func aForgedServiceNeverPasses() throws {
        let witness = Witness(try RoleClient(stack, context: context, certificate: certificates[.observer]!, name: "witness", subscriptions: [""]))
        let components = Role.allCases.filter(\.isComponent).map(\.rawValue)
        for role in Role.allCases {
            let client = try RoleClient(stack, context: context, certificate: certificates[role]!, name: "\(role.rawValue)-client")
            for type in Self.expected[role]! {
                for forged in components + ["gateway", "monitor"] where forged != role.rawValue {
                    // Clients may name themselves as they like, except as a component.
                    if !role.isComponent && !components.contains(forged) { continue }
                    let id = "\(role.rawValue)/\(type.rawValue)/as-\(forged)"
                    let outcome = try send(RoleClient.frames(type.rawValue, service: forged, id: id), id: id, from: client, witness: witness)
                    #expect(outcome == .refused("forged-service"), "\(id)")
                }
            }
        }
        let bus = try #require(stack.processes["bus"])
        #expect(bus.logged("is not its sender's"))
        // Dozens of refusals within seconds: one line (the next would come 10 s later, with a count).
        #expect(bus.stderr.components(separatedBy: "is not its sender's").count - 1 == 1, "\(bus.stderr)")
    }

    @Test func theBusCountsRefusalsInItsHeartbeat() throws {
        let gateway = try RoleClient(stack, context: context, certificate: certificates[.gateway]!, name: "gw", subscriptions: [""])
        let witness = Witness(gateway)
        #expect(try send(RoleClient.frames("roster.monster.updated", service: "gw", id: "forbidden-1"), id: "forbidden-1", from: gateway, witness: witness) == .refused("forbidden-topic"))
        #expect(try send(RoleClient.frames("device.tap", service: "roster", id: "forged-1"), id: "forged-1", from: gateway, witness: witness) == .refused("forged-service"))
        let status = try stack.gateway(["--json", "status"])
        let report = status.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["type"] as? String == "sys.status" }
        let counters = value(report, "body.bus.counters") as? [String: Any]
        #expect((counters?["refusedTopic"] as? Int ?? 0) >= 1, "\(status.stdout)")
        #expect((counters?["refusedService"] as? Int ?? 0) >= 1)
        #expect((counters?["subscriptionsAccepted"] as? Int ?? 0) >= 1)
    }
}
