import JSON
import Contract
import Domain
import Glibc
import ProcessSupport
import Wire


/// `gateway watch`: tails the bus, filtered by device and type prefix, printed as readable
/// lines, JSON envelopes or CloudEvents; with `--validate`, checks every message against the
/// AsyncAPI contract and reports those that break it; says on standard error when it missed
/// messages (a gap in a component's sequence numbers).
enum WatchCommand {
    /// Bookkeeping that floods a human reader: shown only when a `--type` asks for it.
    static let quietPrefixes = ["sys.", "ack"]

    static func run(_ invocation: Invocation, types: [String], count: Int?, session: GatewaySession) throws -> Int32 {
        try session.ensureAnswering([MonsterBus.Service.bus], deadline: Timestamp.monotonic() + invocation.timeout)
        let validator = invocation.validate ? try SchemaValidator.generated() : nil
        let device = invocation.deviceGiven ? invocation.device : nil
        Log.standardError("watching the bus\(device.map { " for device \($0)" } ?? "")\(types.isEmpty ? "" : " (types \(types.joined(separator: ", ")))")\(validator == nil ? "" : ", checking every message against the contract"); Ctrl-C stops\n")
        let waker = SignalWaker()
        let codec = EnvelopeCodec()
        var printed = 0
        var violations = 0
        var gaps = SequenceGaps()
        var rosterDatabase: String?
        try session.client.listenRaw(stop: waker.readDescriptor) { frames in
            let envelope = try? codec.decode(frames: frames)
            if let validator {
                let problems = contractProblems(frames, envelope: envelope, validator: validator)
                if !problems.isEmpty {
                    violations += 1
                    let what = envelope.map { "\($0.type.rawValue) \($0.id) from \($0.service)" }
                        ?? (frames.last.map(EnvelopeCodec.excerpt) ?? "an empty message")
                    Log.standardError("contract violation: \(what): \(problems.joined(separator: "; "))\n")
                }
            }
            guard let envelope else { return true }
            if let missed = gaps.observe(envelope) {
                // A slow reader: the bus dropped what overflowed this watcher's queue.
                Log.standardError("gateway: missed \(missed) message(s) from \(envelope.service) before its seq \(envelope.seq) (this watcher fell behind and the bus dropped them; \(gaps.missed[envelope.service] ?? 0) in all)\n")
                // Told to the bus, which counts what slow readers lost (`gateway status`).
                try? session.client.notify(.lossReport(LossReport(missed: [envelope.service: missed])))
            }
            if let id = databaseId(of: envelope) {
                if let known = rosterDatabase, known != id {
                    Log.standardError("note: the roster database changed from \(known) to \(id) (the roster was reset or started on another file); its revisions start again and replicas re-synchronise from a snapshot\n")
                }
                rosterDatabase = id
            }
            guard shows(envelope, device: device, types: types, json: invocation.format != .human) else { return true }
            switch invocation.format {
            case .human, .json:
                session.output.print(envelope, describingRequests: true)
            case .cloudevents:
                let body = (try? JSONValue.parse(frames[1]))?["body"] ?? [:]
                print(CloudEvent.event(envelope, body: body).jsonText)
                fflush(nil)
            }
            printed += 1
            return count.map { printed < $0 } ?? true
        }
        if validator != nil { Log.standardError("\(violations) message(s) broke the contract\n") }
        return violations == 0 ? ExitStatus.ok : ExitStatus.refused
    }

    /// Why `frames` break the contract: unreadable, or not what their type's schema says.
    static func contractProblems(_ frames: [[UInt8]], envelope: Envelope?, validator: SchemaValidator) -> [String] {
        guard frames.count == 2 else { return ["\(frames.count) frame(s), not 2 (topic, JSON)"] }
        let json: JSONValue
        do {
            json = try JSONValue.parse(frames[1])
        } catch {
            return ["not JSON"]
        }
        var problems = validator.problems(inEnvelope: json)
        // The topic's type part (its key, a bucket or an address, the codec checks).
        if case .string(let type)? = json["type"], !Topic.typePart(frames[0]).elementsEqual(type.utf8) {
            problems.append("topic '\(EnvelopeCodec.excerpt(frames[0]))' is not the type")
        }
        if problems.isEmpty && envelope == nil { problems.append("the services would refuse it") }
        return problems
    }

    /// The roster database id a `roster.*` message carries.
    static func databaseId(of envelope: Envelope) -> String? {
        switch envelope.body {
        case .snapshot(let snapshot): snapshot.databaseId
        case .monsterUpdated(let update): update.databaseId
        case .selection(let selection): selection.databaseId
        case .backup(let backup): backup.databaseId
        default: nil
        }
    }

    /// Whether `envelope` passes the filters.
    static func shows(_ envelope: Envelope, device: String?, types: [String], json: Bool) -> Bool {
        let type = envelope.type.rawValue
        if let device, envelope.device != device { return false }
        if types.isEmpty {
            return !quietPrefixes.contains { type.hasPrefix($0) }
        }
        return types.contains { type.hasPrefix($0) }
    }
}
