// A what-if measurement, not the product: the product's protocol — a device.tap envelope in;
// a presentation.presented/dismissed envelope and an ack envelope out, with fresh ids, sequence
// numbers and timestamps, sent one after the other as ServiceRuntime does — but encoded and
// decoded by the hand-written prototype codec (PrototypeEnvelope) instead of Foundation's, and
// with a trivial core (a toggle per device). It shows what the round trip and the throughput
// would be if only the codec changed. `bench --whatif-echo` is its service process; its topics
// (`whatif.`) keep it apart from the real presentation-policy.

import BusKit
import Glibc
import MonsterKit
import ZeroMQ

enum WhatIfWire {
    /// Client → what-if service (as long as `device.tap`).
    static let requestTopic = Array("whatif.tap".utf8)
    /// What-if service → client.
    static let replyTopic = Array("whatif.reply".utf8)

    /// A popover as presentation-policy presents it for `+` on an iPad in portrait.
    static let presentation = Presentation(
        style: .popover, content: .add, message: nil, buttons: ["Photo", "Audio"],
        buttonFrames: [Rect(x: 578, y: 97, width: 160, height: 37), Rect(x: 578, y: 147, width: 160, height: 37)],
        cancelButtonIndex: nil, anchor: Anchor(kind: .barButton, element: "add", rect: Rect(x: 716, y: 20, width: 44, height: 44)),
        permittedArrowDirections: .any, arrowDirection: .up, arrowTip: Point(x: 738, y: 64),
        frame: Rect(x: 558, y: 77, width: 200, height: 125), contentSize: Size(width: 200, height: 125),
        passthrough: ["navigation-bar", "monster-list", "color", "add"])
}

enum WhatIfEcho {
    /// Runs the what-if service until it is terminated or its parent is gone.
    static func run() -> Int32 {
        let config: BusConfig
        do {
            config = try BusConfig.fromEnvironment()
        } catch {
            Log.standardError("whatif-echo: \(error)\n")
            return 2
        }
        let parent = getppid()
        let service = MonsterBus.Service.presentationPolicy
        do {
            let context = try ZMQContext()
            let publisher = try ZMQSocket(context, .pub)
            let subscriber = try ZMQSocket(context, .sub)
            defer {
                publisher.close()
                subscriber.close()
            }
            try subscriber.subscribe(String(decoding: WhatIfWire.requestTopic, as: UTF8.self))
            try publisher.connect(config.frontend)
            try subscriber.connect(config.backend)
            let ids = IDGenerator()
            var sequence: UInt64 = 0
            var shown: [String: Bool] = [:]
            while true {
                guard try poll([.socket(subscriber)], timeoutMilliseconds: 1000)[0] else {
                    if getppid() != parent { return 0 }
                    continue
                }
                while let frames = try subscriber.receive(dontWait: true) {
                    guard frames.count == 2, let action = PrototypeEnvelope.decode(frames[1]), case .tap = action.body else { continue }
                    let device = action.device ?? ""
                    let up = shown[device] ?? false
                    shown[device] = !up
                    let body: Body = up
                        ? .dismissed(Dismissed(presentation: WhatIfWire.presentation, reason: "toggle"))
                        : .presented(Presented(presentation: WhatIfWire.presentation, reason: "tap"))
                    sequence += 1
                    let decision = Envelope(
                        id: ids.next(), correlationId: action.correlationId, service: service, device: action.device,
                        seq: sequence, time: Timestamp.now(), body: body)
                    try publisher.send([WhatIfWire.replyTopic, PrototypeEnvelope.encode(decision) ?? []])
                    sequence += 1
                    let ack = Envelope(
                        id: ids.next(), correlationId: action.correlationId, service: service, device: action.device,
                        seq: sequence, time: Timestamp.now(),
                        body: .ack(Ack(handled: action.type.rawValue, handledId: action.id, emitted: [decision.id], forwarded: [])))
                    try publisher.send([WhatIfWire.replyTopic, PrototypeEnvelope.encode(ack) ?? []])
                }
            }
        } catch {
            Log.standardError("whatif-echo: \(error)\n")
            return 1
        }
    }
}

/// The what-if client: the product client's work (envelope, encode, send, decode both answers)
/// with the prototype codec, over its own PUB/SUB sockets.
final class WhatIfClient {
    private let publisher: ZMQSocket
    private let subscriber: ZMQSocket
    private let ids = IDGenerator()
    private var sequence: UInt64 = 0
    private let action = Body.tap(Tap(element: "add", profile: .ipad))
    /// Actions that were not decided and acknowledged (over every measurement).
    private(set) var lost = 0

    init(context: ZMQContext, config: BusConfig) throws {
        publisher = try ZMQSocket(context, .pub)
        subscriber = try ZMQSocket(context, .sub)
        try subscriber.subscribe(String(decoding: WhatIfWire.replyTopic, as: UTF8.self))
        try publisher.connect(config.frontend)
        try subscriber.connect(config.backend)
    }

    func close() {
        publisher.close()
        subscriber.close()
    }

    /// Sends one action for `device`; returns its id.
    private func send(device: String) throws -> String {
        sequence += 1
        let id = ids.next()
        let envelope = Envelope(id: id, correlationId: id, service: "bench", device: device, seq: sequence, time: Timestamp.now(), body: action)
        try publisher.send([WhatIfWire.requestTopic, PrototypeEnvelope.encode(envelope) ?? []])
        return id
    }

    /// Sends actions until the what-if service answers, then drops stragglers.
    func handshake(timeout: Double) throws {
        let deadline = Timestamp.monotonic() + timeout
        var retry = 0.01
        while Timestamp.monotonic() < deadline {
            if try roundTrip(device: "whatif-handshake", timeout: retry, counting: false) != nil {
                while try subscriber.receive(timeoutMilliseconds: 50) != nil {}
                return
            }
            retry = min(retry * 2, 0.2)
        }
        throw BenchError("the what-if service never answered through the bus")
    }

    /// One action: seconds until both its decision and its ack are in; nil after `timeout`.
    func roundTrip(device: String, timeout: Double = 2, counting: Bool = true) throws -> Double? {
        let started = Timestamp.monotonic()
        let deadline = started + timeout
        let id = try send(device: device)
        var decided = false, acknowledged = false
        while !(decided && acknowledged) {
            let remaining = deadline - Timestamp.monotonic()
            guard remaining > 0, let frames = try subscriber.receive(timeoutMilliseconds: max(1, Int(remaining * 1000))) else {
                if counting { lost += 1 }
                return nil
            }
            guard frames.count == 2, let envelope = PrototypeEnvelope.decode(frames[1]), envelope.correlationId == id else { continue }
            switch envelope.body {
            case .presented, .dismissed: decided = true
            case .ack(let ack) where ack.handledId == id: acknowledged = true
            default: break
            }
        }
        return Timestamp.monotonic() - started
    }

    /// Actions from `devices` in turn, up to `window` in flight, for `seconds`; every one must
    /// be decided and acknowledged exactly once (as `ProductClient.sustained`).
    func sustained(devices: [String], window: Int, seconds: Double) throws -> Throughput {
        var result = Throughput()
        var inFlight: [String: Bool] = [:]
        var completed: Set<String> = []
        var next = 0
        let started = Timestamp.monotonic()
        var lastProgress = started
        var finished = started
        while true {
            let sending = Timestamp.monotonic() - started < seconds
            while sending && inFlight.count < window {
                inFlight[try send(device: devices[next % devices.count])] = false
                next += 1
                result.sent += 1
            }
            if !sending && inFlight.isEmpty { break }
            guard var frames = try subscriber.receive(timeoutMilliseconds: 100) else {
                if Timestamp.monotonic() - lastProgress > 3 { break }
                continue
            }
            while true {
                if frames.count == 2, let envelope = PrototypeEnvelope.decode(frames[1]) {
                    switch envelope.body {
                    case .presented, .dismissed:
                        if inFlight[envelope.correlationId] != nil {
                            inFlight[envelope.correlationId] = true
                            result.decided += 1
                        }
                    case .ack(let ack):
                        if inFlight.removeValue(forKey: ack.handledId) != nil {
                            completed.insert(ack.handledId)
                            result.completed += 1
                        } else if completed.contains(ack.handledId) {
                            result.duplicates += 1
                        }
                    default:
                        break
                    }
                }
                guard let more = try subscriber.receive(dontWait: true) else { break }
                frames = more
            }
            lastProgress = Timestamp.monotonic()
            finished = lastProgress
        }
        result.seconds = finished - started
        lost += result.lost
        return result
    }
}
