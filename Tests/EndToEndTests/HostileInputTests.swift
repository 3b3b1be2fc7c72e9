import Foundation
import Testing
import Wire
import TestTiers

/// Bad input through the real bus: every case gets an `error` naming what is wrong, from the
/// service it reached, and the services stay up with their state unchanged.
@Suite(.serialized, .tags(.processes)) final class HostileInputTests {
    let stack: Stack

    init() throws { stack = try Stack() }

    /// One hostile message: the frames sent, who must answer, with which code, and how the
    /// error is recognised (the offending id, or the start of the bytes).
    struct Case: CustomStringConvertible {
        let description: String
        let frames: [[UInt8]]
        let service: String
        let code: String
        let offendingId: String?
    }

    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func envelope(id: String, type: String, device: String? = "ipad", body: String, version: Int = 1) -> [UInt8] {
        let devicePart = device.map { "\"device\":\"\($0)\"," } ?? ""
        return json("{\"v\":\(version),\"type\":\"\(type)\",\"id\":\"\(id)\",\"correlationId\":\"\(id)\",\"service\":\"hostile\",\(devicePart)\"seq\":1,\"time\":\"\(Timestamp.now())\",\"body\":\(body)}")
    }

    static let ipad = "{\"idiom\":\"pad\",\"screen\":{\"width\":768,\"height\":1024},\"os\":\"17.0\",\"orientation\":\"portrait\",\"widthClass\":\"regular\"}"

    static let cases: [Case] = [
        Case(description: "bytes that are not JSON", frames: [json("device.tap"), json("hostile-1 not json")], service: "presentation-policy", code: "bad-json", offendingId: nil),
        Case(description: "invalid UTF-8", frames: [json("device.tap"), [0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]], service: "presentation-policy", code: "bad-utf8", offendingId: nil),
        Case(description: "JSON of the wrong shape", frames: [json("device.tap"), json("[\"hostile-3\"]")], service: "presentation-policy", code: "bad-shape", offendingId: nil),
        Case(description: "a missing type", frames: [json("device.tap"), json("{\"v\":1,\"id\":\"hostile-4\",\"body\":{}}")], service: "presentation-policy", code: "missing-field", offendingId: "hostile-4"),
        Case(description: "an unknown type", frames: [json("device.tap"), envelope(id: "hostile-5", type: "device.explode", body: "{}")], service: "presentation-policy", code: "unknown-type", offendingId: "hostile-5"),
        Case(description: "an unsupported version", frames: [json("device.tap"), envelope(id: "hostile-6", type: "device.tap", body: "{\"element\":\"add\"}", version: 2)], service: "presentation-policy", code: "unsupported-version", offendingId: "hostile-6"),
        Case(description: "too few frames", frames: [json("device.tap")], service: "presentation-policy", code: "bad-frames", offendingId: nil),
        // The bus refuses it (a request has two frames) before any service could.
        Case(description: "too many frames", frames: [json("device.tap"), envelope(id: "hostile-8", type: "device.tap", body: "{\"element\":\"add\"}"), json("extra")], service: "bus", code: "too-many-frames", offendingId: "hostile-8"),
        Case(description: "a topic that is not the type", frames: [json("device.tap"), envelope(id: "hostile-9", type: "device.rotate", body: "{\"orientation\":\"landscape\"}")], service: "presentation-policy", code: "topic-mismatch", offendingId: "hostile-9"),
        Case(description: "a missing field in the body", frames: [json("device.rotate"), envelope(id: "hostile-10", type: "device.rotate", body: "{}")], service: "presentation-policy", code: "missing-field", offendingId: "hostile-10"),
        Case(description: "an unknown device", frames: [json("device.tap"), envelope(id: "hostile-11", type: "device.tap", device: "stranger", body: "{\"element\":\"add\"}")], service: "presentation-policy", code: "unknown-device", offendingId: nil),
        Case(description: "no device at all", frames: [json("device.tap"), envelope(id: "hostile-12", type: "device.tap", device: nil, body: "{\"element\":\"add\"}")], service: "presentation-policy", code: "missing-device", offendingId: nil),
        Case(description: "an unknown monster", frames: [json("device.select"), envelope(id: "hostile-13", type: "device.select", body: "{\"monster\":\"Robo-Cop\",\"profile\":\(ipad)}")], service: "roster", code: "unknown-monster", offendingId: nil),
        Case(description: "an unknown element", frames: [json("device.tap"), envelope(id: "hostile-14", type: "device.tap", body: "{\"element\":\"laser\",\"profile\":\(ipad)}")], service: "presentation-policy", code: "unknown-element", offendingId: nil),
        Case(description: "an unknown weapon", frames: [json("input.weapon.selected"), envelope(id: "hostile-15", type: "input.weapon.selected", body: "{\"weapon\":\"Laser\",\"weaponType\":9}")], service: "roster", code: "bad-shape", offendingId: "hostile-15"),
        Case(description: "an unknown monster at roster", frames: [json("roster.select.request"), envelope(id: "hostile-16", type: "roster.select.request", body: "{\"monster\":\"Robo-Cop\"}")], service: "roster", code: "unknown-monster", offendingId: nil),
        Case(description: "an unknown input element", frames: [json("input.tap"), envelope(id: "hostile-17", type: "input.tap", body: "{\"element\":\"zap\",\"keyboard\":{\"width\":768,\"systemHeight\":264,\"windowHeight\":1024}}")], service: "input-handling", code: "unknown-element", offendingId: nil),
        Case(description: "a bad device profile", frames: [json("device.tap"), envelope(id: "hostile-18", type: "device.tap", device: "odd", body: "{\"element\":\"add\",\"profile\":{\"idiom\":\"watch\"}}")], service: "presentation-policy", code: "bad-shape", offendingId: "hostile-18"),
    ]

    func state() throws -> (roster: String, device: String) {
        let roster = try stack.json("ipad", "roster")
        let describe = try stack.json("ipad", "describe")
        func canonical(_ body: [String: Any]?) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: body ?? [:], options: [.sortedKeys]), as: UTF8.self)
        }
        return (try canonical(roster.body("roster.snapshot")), try canonical(describe.body("layout.state")) + (try canonical(describe.body("input.state"))))
    }

    @Test func everyCaseGetsAClearErrorAndNothingChanges() throws {
        _ = try stack.json("ipad", "select", "Dog-Bot")
        _ = try stack.json("ipad", "tap", "add")
        let before = try state()
        let client = try TestClient(stack, subscriptions: ["error"])
        #expect(client.waitForPath(to: Stack.services))
        for hostile in Self.cases {
            try client.bus.sendRaw(hostile.frames)
            let error = client.waitFor { envelope in
                guard case .error(let body) = envelope.body, envelope.service == hostile.service, body.code == hostile.code else { return false }
                if let id = hostile.offendingId { return body.offendingId == id }
                return true
            }
            #expect(error != nil, "no \(hostile.code) error from \(hostile.service) for \(hostile)")
            if case .error(let body)? = error?.body {
                #expect(!body.message.isEmpty)
            }
        }
        let ping = try stack.gateway(["--timeout", "5", "ping"])
        #expect(ping.status == 0, "a service went down: \(ping.stderr)")
        let after = try state()
        #expect(after.roster == before.roster)
        #expect(after.device == before.device)
    }
}
