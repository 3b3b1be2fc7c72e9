import BusCore
import Wire

/// A message the proxy refused, as it hands it to the registry: why, who sent it, and the
/// header fields to answer it by.
struct RefusedMessage {
    /// The `error` code (`forbidden-topic`, `forged-service`, …).
    let code: String
    /// The sender's certificate name.
    let client: String
    /// The sender's role.
    let role: String
    /// The topic frame (its start).
    let topic: String
    /// The refused message's id, if it could be read.
    let offendingId: String?
    /// Its correlation id, if it could be read.
    let correlationId: String?
    /// Its device, if any.
    let device: String?
    /// Its `service` field, if it could be read.
    let service: String?
    /// Its `replyTo` address, if it has a valid one: the error goes to that client's address.
    let replyTo: String?

    /// The refusal in the proxy's nine frames.
    init?(frames: [[UInt8]]) {
        guard frames.count == 9 else { return nil }
        func text(_ index: Int) -> String? { frames[index].isEmpty ? nil : String(decoding: frames[index], as: UTF8.self) }
        code = text(0) ?? "refused"
        client = text(1) ?? "?"
        role = text(2) ?? "?"
        topic = text(3) ?? ""
        offendingId = text(4)
        correlationId = text(5)
        device = text(6).flatMap { $0.utf8.count <= 64 ? $0 : nil }
        service = text(7)
        replyTo = text(8).flatMap { Envelope.isAddress($0) && Identifier.controlCharacter(in: $0) == nil ? $0 : nil }
    }

    /// What the sender is told, and what the log says.
    var explanation: String {
        switch code {
        case BusPolicy.Refusal.forbiddenTopic.code:
            "the bus refused '\(topic)' from \(client): role \(role) may not publish it (see the permission table in docs/security.md)"
        case BusPolicy.Refusal.forgedService.code:
            "the bus refused '\(topic)' from \(client): its service '\(service ?? "?")' is not its sender's (role \(role))"
        case BusPolicy.Refusal.revoked.code:
            "the bus refused '\(topic)': the sender's key was revoked; its connection is closed"
        default:
            "the bus refused '\(topic)' from \(client) (role \(role)): \(code)"
        }
    }
}

/// Rate limiting of the refusal log: the first refusal of each code is logged, then at most one
/// line per code every `interval` seconds, saying how many were not logged in between.
struct RefusalLog {
    /// Seconds between two lines of one code.
    var interval = 10.0
    private var lastLine: [String: Double] = [:]
    private var suppressed: [String: Int] = [:]

    /// The line to log for `refusal` at monotonic time `now`, or nil to stay quiet.
    mutating func line(for refusal: RefusedMessage, now: Double) -> String? {
        if let last = lastLine[refusal.code], now - last < interval {
            suppressed[refusal.code, default: 0] += 1
            return nil
        }
        lastLine[refusal.code] = now
        let skipped = suppressed.removeValue(forKey: refusal.code) ?? 0
        return refusal.explanation + (skipped > 0 ? " (and \(skipped) more refusal(s) of this kind not logged)" : "")
    }
}
