import Domain
import Foundation
import ProcessSupport
import Processes
import Testing
import ZeroMQ
import ZeroMQTransport
import TestTiers

/// A keys folder made by the real `gateway keys init`, removed when released.
final class KeysFolder {
    let root: URL
    var path: String { root.appendingPathComponent("keys").path }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("monster-bus-keys-\(UUID().uuidString.prefix(8))")
        let made = try runToCompletion(Products.url("gateway"), ["keys", "init", root.appendingPathComponent("keys").path], environment: [:])
        guard made.status == 0 else { throw StackError("gateway keys init failed: \(made.stderr)") }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The bus's public key, from `bus.key`.
    func busKey() throws -> CurveKey { try Certificate.load(path + "/bus.key").publicKey }
}

extension ChildProcess {
    /// Whether a line containing `text` is (or within 5 seconds gets) in the process's stderr.
    func logged(_ text: String) -> Bool {
        waitForLine(timeout: 5) { $0.contains(text) ? true : nil } ?? false
    }
}

/// The whole stack on CURVE (`BUS_KEYS_DIR`), over TCP on ephemeral ports: authorised clients
/// work; plaintext clients and clients with keys the bus does not admit can neither inject an
/// action nor read a message.
@Suite(.serialized, .tags(.processes)) final class CurveTests {
    let keys: KeysFolder
    let stack: Stack

    init() throws {
        keys = try KeysFolder()
        stack = try Stack(curve: keys)
    }

    @Test func anAuthorisedGatewayWorks() throws {
        let result = try stack.json("ipad", "tap", "add")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(value(result.body("presentation.presented"), "presentation.style") as? String == "popover")
        let human = try stack.gateway(["--device", "ipad", "tap", "photo"])
        #expect(human.stdout.contains("ipad add photo requested"), "\(human.stderr)")
        let bus = try #require(stack.processes["bus"])
        #expect(bus.logged("CURVE on: server key \(try keys.busKey().z85)"))
        #expect(bus.logged("5 authorised client key(s)"))
        #expect(bus.logged("admitted gateway"))
        #expect(!bus.stderr.contains("PLAINTEXT"))
        for service in Stack.services {
            #expect(stack.processes[service]?.logged("CURVE: certificate \(keys.path)/\(service).key_secret") == true, "\(service)")
        }
    }

    @Test func aPlaintextClientCanNeitherInjectNorRead() throws {
        try expectShutOut(nil, device: "plain-intruder")
        let refused = try stack.gateway(["--timeout", "1", "ping"], environment: ["BUS_KEYS_DIR": ""])
        #expect(refused.status == 3)
        #expect(refused.stderr.contains("If the bus uses CURVE keys, set BUS_KEYS_DIR"))
    }

    @Test func aClientWithAKeyTheBusDoesNotAdmitCanNeitherInjectNorRead() throws {
        let outsider = try CurveKeyPair.generate()
        try expectShutOut(CurveSettings(keys: outsider, serverKey: try keys.busKey(), certificatePath: "(generated)"), device: "key-intruder")
        let bus = try #require(stack.processes["bus"])
        #expect(bus.logged("refused a client from 127.0.0.1: its public key \(outsider.publicKey.z85) is not in"))
    }

    @Test func aFloodOfUnknownKeysWritesAFewWarningsNotOnePerKey() throws {
        // A bus of its own at debug level, so that every refusal can be counted in its log.
        let flooded = try Stack(curve: keys, services: [], environment: ["LOG_LEVEL": "debug"])
        let bus = try #require(flooded.processes["bus"])
        let context = try ZMQContext()
        let clients = 300
        var sockets: [ZMQSocket] = []
        defer { for socket in sockets { socket.close() } }
        for _ in 0..<clients {
            let socket = try ZMQSocket(context, .sub, lingerMilliseconds: 0)
            try socket.makeCurveClient(try CurveKeyPair.generate(), serverKey: try keys.busKey())
            try socket.connect(flooded.backend)
            sockets.append(socket)
        }
        func count(_ text: String, in log: String) -> Int { log.split(separator: "\n").filter { $0.contains(text) }.count }
        let started = Date()
        let allSeen = bus.waitForStderr(timeout: 60) { count(": refused a client", in: $0) >= clients }
        #expect(allSeen, "refusals logged: \(count(": refused a client", in: bus.stderr))")
        // The first refusal, then at most one summary per 10 s of the flood.
        let warnings = count("bus warn: refused a client", in: bus.stderr)
        #expect(warnings >= 1 && warnings <= 2 + Int(Date().timeIntervalSince(started) / 10), "\(warnings) warnings")
        #expect(bus.stderr.contains("further refusals are summarised every 10 s"))
    }

    @Test func aClientWithAnotherBusKeyIsShutOut() throws {
        // Its key is admitted, but it expects another server: the handshake fails.
        let gateway = try Certificate.load(keys.path + "/gateway.key_secret")
        try expectShutOut(CurveSettings(keys: try #require(gateway.keyPair), serverKey: try CurveKeyPair.generate().publicKey, certificatePath: "(gateway)"), device: "mitm")
    }

    @Test func aClientAddedToAuthorizedIsAdmittedAfterSIGHUP() throws {
        let newcomer = keys.root.appendingPathComponent("newcomer").path
        try FileManager.default.createDirectory(atPath: newcomer, withIntermediateDirectories: true)
        try Certificate.generate(metadata: ["name": "newcomer"]).save(in: newcomer, name: "newcomer")
        let asNewcomer = ["BUS_CLIENT_CERT": newcomer + "/newcomer.key_secret"]
        #expect(try stack.gateway(["--timeout", "1", "ping", "bus"], environment: asNewcomer).status == 3)

        try FileManager.default.copyItem(atPath: newcomer + "/newcomer.key", toPath: keys.path + "/authorized/newcomer.key")
        let bus = try #require(stack.processes["bus"])
        bus.signal(SIGHUP)
        #expect(bus.waitForLine(timeout: 5) { $0.contains("SIGHUP: re-read") && $0.contains("6 authorised client key(s)") ? true : nil } == true)
        let admitted = try stack.gateway(["--timeout", "5", "ping"], environment: asNewcomer)
        #expect(admitted.status == 0, "\(admitted.stderr)")
        #expect(bus.logged("admitted newcomer"))
    }

    /// Proves that a client configured with `curve` (nil: plaintext) is shut out. An admitted
    /// witness and the outsider both send `tap add` for their own device, round after round,
    /// until the witness sees its popover, then for ten more rounds. The outsider must receive
    /// nothing (heartbeats flow all the time), the witness must see nothing for the outsider's
    /// device, and there must be no popover on it: `tap photo` is refused with no-such-element.
    private func expectShutOut(_ curve: CurveSettings?, device: String) throws {
        let context = try ZMQContext()
        try withExtendedLifetime(context) {
            var outsiderConfig = BusConfig(frontend: stack.frontend, backend: stack.backend)
            outsiderConfig.curve = curve
            let witnessConfig = try BusConfig.fromEnvironment(stack.environment, component: MonsterBus.Service.gateway)
            #expect(witnessConfig.curve != nil)
            let outsider = try BusConnection(context: context, config: outsiderConfig, service: "outsider", subscriptions: [""], lingerMilliseconds: 0)
            let witness = try BusConnection(context: context, config: witnessConfig, service: "witness", subscriptions: [""], lingerMilliseconds: 0)
            defer { outsider.close(); witness.close() }

            let witnessDevice = device + "-witness"
            var witnessSawItsPopover = false, extraRounds = 0, witnessSawOutsider: [String] = []
            let deadline = Date().addingTimeInterval(10)
            while extraRounds < 10 && Date() < deadline {
                try outsider.publish(.tap(Tap(element: "add", profile: .ipad)), device: device)
                if witnessSawItsPopover {
                    extraRounds += 1
                } else {
                    try witness.publish(.tap(Tap(element: "add", profile: .ipad)), device: witnessDevice)
                }
                let roundEnds = Date().addingTimeInterval(0.05)
                while let frames = try witness.receiveFrames(timeoutMilliseconds: max(1, Int(roundEnds.timeIntervalSinceNow * 1000))) {
                    guard let envelope = try? witness.codec.decode(frames: frames) else { continue }
                    if envelope.device == device { witnessSawOutsider.append(envelope.type.rawValue) }
                    if envelope.device == witnessDevice, case .presented = envelope.body { witnessSawItsPopover = true }
                }
            }
            #expect(witnessSawItsPopover, "the admitted witness never got through")
            #expect(witnessSawOutsider.isEmpty, "the outsider's taps reached the services: \(witnessSawOutsider)")
            #expect(try outsider.receiveFramesNow() == nil, "the outsider read a message")
        }
        let photo = try stack.gateway(["--json", "--device", device, "--profile", "ipad", "tap", "photo"])
        #expect(photo.status == 1, "\(photo.stdout)\(photo.stderr)")
        #expect(value(photo.body("error"), "code") as? String == "no-such-element")
    }
}

/// The bus without keys, and with broken ones.
@Suite(.tags(.processes)) struct CurveConfigurationTests {
    @Test func withoutKeysTheBusWarnsLoudlyThatItIsPlaintext() throws {
        let stack = try Stack(services: [])
        try stack.waitUntilAnswering(["bus"])   // up, so that it stops promptly at the end
        let bus = try #require(stack.processes["bus"])
        let warning = bus.waitForLine(timeout: 10) { $0.contains("bus warn: BUS_KEYS_DIR is not set") ? String($0) : nil }
        #expect(warning?.contains("PLAINTEXT") == true)
    }

    @Test func theBusRefusesToStartWithoutItsAuthorisedFolder() throws {
        let keys = try KeysFolder()
        try FileManager.default.removeItem(atPath: keys.path + "/authorized")
        let folder = keys.root.path
        let result = try runToCompletion(Products.url("bus"), [], environment: [
            "BUS_KEYS_DIR": keys.path, "BUS_FRONTEND": "ipc://\(folder)/f", "BUS_BACKEND": "ipc://\(folder)/b",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("cannot read the folder \(keys.path)/authorized: No such file or directory"))
        // Refused before binding: no socket was made at either endpoint.
        #expect(!FileManager.default.fileExists(atPath: "\(folder)/f") && !FileManager.default.fileExists(atPath: "\(folder)/b"))
    }

    @Test func aServiceWithoutItsCertificateSaysWhichFileIsMissing() throws {
        let keys = try KeysFolder()
        try FileManager.default.removeItem(atPath: keys.path + "/roster.key_secret")
        let result = try runToCompletion(Products.url("roster"), [], environment: ["BUS_KEYS_DIR": keys.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("roster.key_secret: No such file or directory"))
    }
}
