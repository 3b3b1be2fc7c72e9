import Domain
import Foundation
import Testing
import Wire
import TestTiers

/// A refusal that only says to send the action again (`not-owner`, `fenced`: the instance that
/// heard it does not decide the device now, e.g. an old owner still subscribed during a move).
/// The real gateway, over a real bus, against an instance played here: with `GATEWAY_RETRY_MS` it
/// sends the same id again and prints the answer of whichever instance decides; without it, the
/// refusal is the outcome. The services' side (not remembering such a refusal, so the repeat is
/// handled afresh) is `RuntimeCoreTests`; a real move is `ShardingTests`.
@Suite(.serialized, .tags(.processes)) final class SendAgainTests {
    let stack: Stack

    init() throws { stack = try Stack(services: []) }

    /// `gateway --json rotate portrait` with `retryMilliseconds`, while this test plays
    /// presentation-policy: it answers pings, and the n-th copy of the rotation with `answers[n]`
    /// (the last one from then on): a refusal with that code, or nil for an `action.unchanged`.
    /// Returns what the gateway printed and the ids of the rotations heard, in order.
    func rotate(answering answers: [String?], retryMilliseconds: Int?, timeout: Int = 10) throws -> (CommandResult, heard: [String]) {
        let peer = try TestClient(stack, subscriptions: [MessageType.ping.rawValue, MessageType.rotate.rawValue], service: "presentation-policy")
        let output = stack.folder.appendingPathComponent("gateway-\(UUID().uuidString.prefix(6)).out")
        let started = Date()
        let gateway = try stack.startGateway(
            ["--json", "--timeout", "\(timeout)", "--device", "moving-ipad", "rotate", "portrait"], outputFile: output,
            environment: retryMilliseconds.map { ["GATEWAY_RETRY_MS": "\($0)"] } ?? [:])
        var heard: [String] = []
        while gateway.isRunning, Date().timeIntervalSince(started) < Double(timeout + 10) {
            guard let envelope = peer.next(until: Date().addingTimeInterval(0.05)) else { continue }
            let answer = { (body: Body) in
                try peer.bus.publish(body, correlationId: envelope.correlationId, device: envelope.device, replyTo: envelope.replyTo)
            }
            switch envelope.body {
            case .ping:
                try peer.bus.publish(.pong(Pong(service: "presentation-policy", version: MonsterBus.version, pid: 1)), correlationId: envelope.id, replyTo: envelope.replyTo)
            case .rotate:
                heard.append(envelope.id)
                let published = try answers[min(heard.count, answers.count) - 1].map {
                    try answer(.error(ErrorBody(code: $0, message: "moving-ipad is not decided here now; nothing was decided, send it again", offendingId: envelope.id)))
                } ?? answer(.unchanged(Unchanged(reason: "same-orientation", message: "already portrait")))
                _ = try answer(.ack(Ack(handled: envelope.type.rawValue, handledId: envelope.id, emitted: [published.id], forwarded: [])))
            default:
                continue
            }
        }
        let status = gateway.waitForExit(timeout: 5) ?? -1
        let stdout = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return (CommandResult(status: status, stdout: stdout, stderr: gateway.stderr, seconds: Date().timeIntervalSince(started)), heard)
    }

    @Test func sendingAgainTheGatewayTakesSuchARefusalAsNoAnswerAndPrintsTheDecision() throws {
        for code in ["not-owner", "fenced"] {
            let (result, heard) = try rotate(answering: [code, code, nil], retryMilliseconds: 100)
            #expect(result.status == 0, "\(code): \(result.stdout) \(result.stderr)")
            // Three sends of one id; the refusals neither printed nor taken as the outcome.
            #expect(heard.count == 3 && Set(heard).count == 1, "\(code): \(heard)")
            #expect(result.types == ["action.unchanged"], "\(code): \(result.stdout)")
            #expect(!result.stdout.contains(code), "\(code): \(result.stdout)")
        }
    }

    @Test func notSendingAgainSuchARefusalIsTheOutcome() throws {
        let (result, heard) = try rotate(answering: ["not-owner", nil], retryMilliseconds: nil)
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(heard.count == 1 && result.types == ["error"] && result.stdout.contains("not-owner"), "\(result.stdout)")
    }

    @Test func refusedUntilTheTimeoutTheGatewaySaysWhatItWasLastAnswered() throws {
        let (result, heard) = try rotate(answering: ["fenced"], retryMilliseconds: 100, timeout: 2)
        #expect(result.status == 3, "\(result.stdout) \(result.stderr)")
        #expect(heard.count >= 2 && Set(heard).count == 1, "\(heard)")
        #expect(result.stderr.contains("still waiting for an acknowledgement from presentation-policy"), "\(result.stderr)")
        #expect(result.stderr.contains("presentation-policy last answered fenced: moving-ipad is not decided here now"), "\(result.stderr)")
    }
}
