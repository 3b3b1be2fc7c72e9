import Domain
import MonitorKit
import PresentationCore
import PresentationService
import Testing
import Wire

/// Makes envelopes as the processes would send them, and feeds them to a model.
struct Wire {
    var model = MonitorModel()
    var core = PresentationCore(memo: PresentationTables())
    var sequences: [String: UInt64] = [:]
    var counter = 0
    var now = 100.0

    mutating func envelope(_ body: Body, from service: String, device: String?, correlationId: String? = nil) -> Envelope {
        counter += 1
        sequences[service, default: 0] += 1
        let id = "\(service)-prefix-\(counter)"
        return Envelope(
            id: id, correlationId: correlationId ?? id, service: service, device: device,
            seq: sequences[service]!, time: "2026-11-30T10:00:00.\(100 + counter)Z", body: body)
    }

    /// Delivers `envelope` to the model (a millisecond later than the last); returns its requests.
    @discardableResult
    mutating func deliver(_ envelope: Envelope) -> [MonitorModel.Request] {
        now += 0.001
        return model.receive(envelope, at: now)
    }

    /// Makes the model ready: it sent a ping and hears the pong.
    mutating func ready() -> [MonitorModel.Request] {
        model.sent(.ping, id: "monitor-ping", at: now)
        return deliver(envelope(.pong(Pong(service: "bus", version: "0.1.0", pid: 1)), from: "bus", device: nil, correlationId: "monitor-ping"))
    }

    /// A gateway's action for `device`, presentation-policy's decision (from the real core)
    /// and its ack, delivered in order — or with the action last, as a pair of buses can bring
    /// them (`actionLast`); returns the action's id.
    @discardableResult
    mutating func act(_ device: String, _ action: Body, actionLast: Bool = false) -> String {
        let sent = envelope(action, from: "gateway", device: device)
        var caused: [Envelope] = []
        guard let decided = PresentationAction(action) else {
            Issue.record("\(action.type) is not an action presentation-policy decides")
            return sent.id
        }
        for effect in core.handle(device: device, action: decided) where effect.forwardTo == nil {
            let message = envelope(effect.body, from: "presentation-policy", device: device, correlationId: sent.id)
            caused.append(message)
            // What input-handling reads (`Routing.readers`) it acknowledges too.
            for reader in Routing.readers[message.type] ?? [] {
                caused.append(envelope(.ack(Ack(handled: message.type.rawValue, handledId: message.id, emitted: [], forwarded: [])),
                                       from: reader, device: device, correlationId: sent.id))
            }
        }
        let emitted = caused.filter { $0.service == "presentation-policy" }.map(\.id)
        caused.append(envelope(.ack(Ack(handled: sent.type.rawValue, handledId: sent.id, emitted: emitted, forwarded: [])),
                               from: "presentation-policy", device: device, correlationId: sent.id))
        for message in actionLast ? caused + [sent] : [sent] + caused { deliver(message) }
        return sent.id
    }

    /// presentation-policy's answer to the monitor's describe `id` of `device`.
    mutating func answerDescribe(_ device: String, id: String) {
        model.sent(.describe(device), id: id, at: now)
        for effect in core.handle(device: device, action: .describe(Describe())) where effect.forwardTo == nil {
            deliver(envelope(effect.body, from: "presentation-policy", device: device, correlationId: id))
        }
    }
}
