import Foundation
import ProcessSupport
import Testing
import ZeroMQ
import TestTiers

/// Revocation through the real bus on CURVE: once a key is removed from `authorized/` and the
/// bus gets SIGHUP, the key's open connections are cut within a second: it reads nothing more
/// and nothing it sends passes.
@Suite(.serialized, .tags(.processes)) final class RevocationTests {
    let keys: KeysFolder
    let stack: Stack
    let context: ZMQContext

    init() throws {
        keys = try KeysFolder()
        for name in ["victim", "witness"] {
            let certificate = try Certificate.generate(metadata: ["name": name, "role": "gateway"])
            try certificate.save(in: keys.root.path, name: name)
            try certificate.publicCertificate.save(in: keys.path + "/authorized", name: name)
        }
        stack = try Stack(curve: keys, services: [])
        context = try ZMQContext()
    }

    @Test func aRevokedKeyIsCutOffWithinOneSecondOfSIGHUP() throws {
        let victim = try RoleClient(stack, context: context, certificate: keys.root.path + "/victim.key_secret", name: "victim", subscriptions: [""])
        let witness = Witness(try RoleClient(stack, context: context, certificate: keys.root.path + "/witness.key_secret", name: "witness", subscriptions: [""]))
        // Both work: the victim's ping passes and it reads.
        var passed = false
        for attempt in 0..<50 where !passed {
            let id = "before-\(attempt)"
            try victim.bus.sendRaw(RoleClient.frames("sys.ping", service: "victim", id: id))
            passed = try witness.outcome(of: id, timeout: 0.2) == .passed
        }
        #expect(passed)
        #expect(try victim.bus.receiveFrames(timeoutMilliseconds: 5000) != nil)

        try FileManager.default.removeItem(atPath: keys.path + "/authorized/victim.key")
        let bus = try #require(stack.processes["bus"])
        let signalled = Date()
        bus.signal(SIGHUP)
        #expect(bus.waitForLine(timeout: 5) { $0.contains("SIGHUP: re-read") ? true : nil } == true)
        // Within a second of the signal the connections are gone; from then on the victim
        // reads nothing (heartbeats come every 200 ms) and nothing it sends passes.
        let cutBy = signalled.addingTimeInterval(1)
        while Date() < cutBy { _ = try victim.bus.receiveFrames(timeoutMilliseconds: max(1, Int(cutBy.timeIntervalSinceNow * 1000))) }
        #expect(try victim.bus.receiveFrames(timeoutMilliseconds: 1500) == nil, "the revoked key still reads")
        for attempt in 0..<5 {
            let id = "after-\(attempt)"
            try victim.bus.sendRaw(RoleClient.frames("sys.ping", service: "victim", id: id))
            #expect(try witness.outcome(of: id, timeout: 0.3) == nil, "the revoked key's \(id) passed")
        }
        // The witness is still served (after its reconnection, if it was cut with the others).
        var witnessServed = false
        for attempt in 0..<50 where !witnessServed {
            let id = "witness-\(attempt)"
            try witness.client.bus.sendRaw(RoleClient.frames("sys.ping", service: "witness", id: id))
            witnessServed = try witness.outcome(of: id, timeout: 0.2) == .passed
        }
        #expect(witnessServed)
        #expect(bus.logged("refused a client from 127.0.0.1: its public key"))
        // Its own connection was cut, not left open with its messages refused: the bus's
        // counters say so (`gateway status`, counted when asked).
        let status = try stack.gateway(["--json", "status"])
        let report = status.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["type"] as? String == "sys.status" }
        let counters = value(report, "body.bus.counters") as? [String: Any]
        #expect((counters?["revokedDisconnects"] as? Int ?? 0) >= 1 && (counters?["refusedRevoked"] as? Int ?? 0) == 0, "\(status.stdout)")
    }
}
