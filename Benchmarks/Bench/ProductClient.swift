// The product side: a client made of the project's own BusConnection and EnvelopeCodec, sending
// device actions to presentation-policy and waiting, like the gateway, for the decision and the
// service's ack.

import Domain
import JSON
import Glibc
import ProcessSupport
import Runtime
import ThreadOwnership
import Wire
import ZeroMQ
import ZeroMQTransport

/// Where the product client's own time goes in the round trips (seconds, summed).
struct ClientTime {
    var envelope = 0.0
    var encode = 0.0
    var send = 0.0
    var decode = 0.0
    var roundTrips = 0
}

/// A device client of the bus, owned by the thread that made it.
final class ProductClient {
    /// The project's connection: PUB/SUB, envelopes, codec, ids.
    let bus: BusConnection
    /// The action every measurement sends: a tap on `+` of an iPad, which presents the
    /// Photo/Audio popover and dismisses it the next time. The device's profile travels only
    /// with its first action (`firstAction`), as the gateway's `run` does: the services keep it.
    let action = Body.tap(Tap(element: "add"))
    /// A device's first action since the deciding service started: the same tap, with the
    /// iPad's profile, which creates the device.
    let firstAction = Body.tap(Tap(element: "add", profile: .ipad))
    // What follows is used several times per round trip by this client's one thread.
    /// The devices that have had their first action since the deciding service last started.
    private let created = ThreadOwned(Set<String>())
    /// The device of the last action (in `created`): a run of actions on one device looks it up once.
    private let lastDevice = ThreadOwned<String?>(nil)

    /// The action to send for `device`: `firstAction` the first time, then `action`.
    func action(for device: String) -> Body {
        if device == lastDevice.value { return action }
        lastDevice.value = device
        return created.value.insert(device).inserted ? firstAction : action
    }
    /// What the measurements count.
    private struct Tally {
        var lost = 0, duplicates = 0, refused = 0, actionsSinceStart = 0
    }
    private let tally = ThreadOwned(Tally())
    /// Actions sent whose acknowledgement never came, over every measurement.
    var lost: Int { tally.value.lost }
    /// Acknowledgements received twice, over every measurement.
    var duplicates: Int { tally.value.duplicates }
    /// Actions refused (an `error` instead of a decision), over every measurement.
    var refused: Int { tally.value.refused }
    /// Actions sent since presentation-policy last (re)started, to compare with its counters.
    var actionsSinceStart: Int { tally.value.actionsSinceStart }
    /// One of each reply, for the codec measurement.
    private(set) var samples: [MessageType: Envelope] = [:]
    /// The types in `samples`, one bit each (`ReplyHeader.typeBit`): tested without comparing or hashing names.
    private let sampled = ThreadOwned<UInt64>(0)
    /// Where each message is received (`next`), its storage kept from message to message.
    private let message = ThreadOwned(ReceivedMessage())
    /// Where each action's JSON is written, then sent from.
    private let writer = JSONWriter()
    /// Seconds spent, in `roundTrip`, on this client's own part: making the envelope, encoding
    /// it, sending it, and decoding what came back.
    var clientTime: ClientTime { timeSpent.value }
    private let timeSpent = ThreadOwned(ClientTime())
    /// presentation-policy's last heartbeat, and when it arrived: decoded only when its
    /// `handled` counter is asked for (`policyHandledCount`), not as it comes.
    private var policyHeartbeat: (frames: [[UInt8]], at: Double)?

    /// The deciding service whose answers count: presentation-policy, or the Python peer.
    let service: String
    /// This client's address (`replyTo`): it hears the answers to its own actions only.
    let address = Topic.newAddress()

    /// Connects to the bus of `config`, subscribed to what the measurements need — the answers
    /// on its own address, as the gateway does, and the heartbeats; the answers of `service` count.
    init(context: ZMQContext, config: BusConfig, service: String = MonsterBus.Service.presentationPolicy) throws {
        self.service = service
        let answers: [MessageType] = [.presented, .dismissed, .ack, .error, .pong]
        bus = try BusConnection(
            context: context, config: config, service: "bench",
            subscriptions: answers.flatMap { [address] in Topic.answerSubscriptions(to: $0, address: address) } + [MessageType.heartbeat.rawValue],
            lingerMilliseconds: 0)
    }

    /// Closes the sockets.
    func close() { bus.close() }

    /// `action` of `device` as the wire carries it: the raw echoes' pings are as large.
    func encodedAction(device: String = "bench-ipad") throws -> [UInt8] {
        try bus.codec.encode(bus.envelope(action, device: device))
    }

    /// presentation-policy was restarted: count its actions from zero.
    func policyRestarted() {
        tally.value.actionsSinceStart = 0
        created.value.removeAll()
        lastDevice.value = nil
        policyHeartbeat = nil
    }

    /// For a loss report: waits (up to `timeout` s) for a heartbeat of presentation-policy sent
    /// after now, and returns its `handled` counter — every action that reached it.
    func policyHandledCount(timeout: Double = 3) throws -> UInt64? {
        let asked = Timestamp.monotonic()
        // A heartbeat leaves at most one interval after `asked`; allow for one in transit.
        while Timestamp.monotonic() < asked + timeout {
            if let last = policyHeartbeat, last.at > asked + 0.05 { return handled(in: last.frames) }
            _ = try next(until: min(asked + timeout, Timestamp.monotonic() + 0.1))
        }
        return policyHeartbeat.flatMap { handled(in: $0.frames) }
    }

    /// The `handled` counter of the heartbeat in `frames` (decoded in full), if it is the
    /// deciding service's.
    private func handled(in frames: [[UInt8]]) -> UInt64? {
        guard let envelope = try? bus.codec.decode(frames: frames), case .heartbeat(let beat) = envelope.body,
              beat.service == service else { return nil }
        return beat.counters["handled"]
    }

    /// Keeps the deciding service's last heartbeat (by its header's `service`; the others' are
    /// dropped unread); true when `reply` was a heartbeat.
    private func noteHeartbeat(_ reply: ReplyHeader) -> Bool {
        guard reply.type == .heartbeat else { return false }
        if reply.isFrom(service) { policyHeartbeat = (reply.frames, Timestamp.monotonic()) }
        return true
    }

    /// Pings until every one of `services` has answered through the bus (as the gateway does:
    /// their publishers then know this subscriber), then drops what else arrives for 50 ms.
    func handshake(services: [String], timeout: Double) throws {
        var waiting = Set(services)
        var pings: Set<String> = []
        let deadline = Timestamp.monotonic() + timeout
        var retry = 0.01
        while !waiting.isEmpty {
            let now = Timestamp.monotonic()
            guard now < deadline else {
                throw BenchError("no answer from \(waiting.sorted().joined(separator: ", ")) through the bus")
            }
            pings.insert(try bus.publish(.ping(Ping()), replyTo: address).id)
            let resendAt = min(deadline, now + retry)
            retry = min(retry * 2, 0.2)
            while !waiting.isEmpty, let reply = try next(until: resendAt) {
                if reply.type == .pong, pings.contains(reply.correlationId) {
                    waiting.remove(reply.service)
                }
            }
        }
        while try bus.receive(into: &message.value, timeoutMilliseconds: 50) {}
    }

    /// One action on `device`: seconds from before the envelope is made until both the
    /// decision and presentation-policy's ack are in; nil (counted as lost) after `timeout`.
    func roundTrip(device: String, timeout: Double = 2) throws -> Double? {
        let started = Timestamp.monotonic()
        let deadline = started + timeout
        // What `bus.publish` does, in three timed steps (the JSON written in, and sent from, `writer`).
        let sent = bus.envelope(action(for: device), device: device, replyTo: address)
        let made = Timestamp.monotonic()
        let topic = try bus.codec.write(sent, into: writer)
        let encoded = Timestamp.monotonic()
        try writer.withBytes { try bus.send(topic: topic, json: $0) }
        tally.value.actionsSinceStart += 1
        timeSpent.value.envelope += made - started
        timeSpent.value.encode += encoded - made
        timeSpent.value.send += Timestamp.monotonic() - encoded
        timeSpent.value.roundTrips += 1
        // Timed until the decision is back (what a user waits for); the ack, which follows it
        // on the same socket, is awaited too before the next round trip, but not timed.
        var decidedAt: Double?
        var acked = false
        while !(decidedAt != nil && acked) {
            guard let reply = try next(until: deadline, timed: true) else {
                tally.value.lost += 1
                return nil
            }
            guard reply.correlates(to: sent.id) else { continue }
            switch reply.type {
            case .presented, .dismissed:
                decidedAt = decidedAt ?? Timestamp.monotonic()
                try keepSample(reply)
            case .ack where reply.isFrom(service):
                if acked { tally.value.duplicates += 1 }
                acked = true
                try keepSample(reply)
            case .error:
                tally.value.refused += 1
                decidedAt = decidedAt ?? Timestamp.monotonic()
            default:
                break
            }
        }
        return (decidedAt ?? Timestamp.monotonic()) - started
    }

    /// How long a sustained run goes on.
    enum Length {
        /// Sends for this many seconds, then waits for the last acknowledgements.
        case seconds(Double)
        /// Sends exactly one action per device, in order (to give each device its state).
        case oncePerDevice
    }

    /// Actions from `devices` in turn with up to `window` in flight, for `length`. Every action
    /// must be decided and acknowledged exactly once; one still missing 3 s after the last
    /// progress is lost. Sends never wait: a PUB socket does not block (it would drop at its
    /// high-water mark, which the window keeps far away), and replies are drained between sends.
    func sustained(devices: [String], window: Int, length: Length) throws -> Throughput {
        var result = Throughput()
        // Each action by the counter of its id (this client's ids are `PREFIX-N`, N counting up),
        // as the raw windowed echo tracks its pings by sequence number: flat arrays, no id hashed.
        var tracked = TrackedActions()
        var next = 0
        let started = Timestamp.monotonic()
        var lastProgress = started
        var finished = started
        func stillSending() -> Bool {
            switch length {
            case .seconds(let seconds): Timestamp.monotonic() - started < seconds
            case .oncePerDevice: next < devices.count
            }
        }
        func hasMoreToSend() -> Bool {
            switch length {
            case .seconds: true
            case .oncePerDevice: next < devices.count
            }
        }
        while true {
            let sending = stillSending()
            if sending {
                while tracked.inFlight < window && hasMoreToSend() {
                    let device = devices[next % devices.count]
                    let envelope = bus.envelope(action(for: device), device: device, replyTo: address)
                    try bus.send(envelope, writingIn: writer)
                    tally.value.actionsSinceStart += 1
                    try tracked.sent(envelope.id, at: Timestamp.monotonic())
                    next += 1
                    result.sent += 1
                }
            }
            if !sending && tracked.inFlight == 0 { break }
            guard try bus.receive(into: &message.value, timeoutMilliseconds: 100) else {
                if Timestamp.monotonic() - lastProgress > 3 { break }
                continue
            }
            // Take everything waiting before sending again.
            while true {
                if let reply = ReplyHeader(message.value), !noteHeartbeat(reply), let index = tracked.index(of: reply) {
                    switch reply.type {
                    case .presented, .dismissed:
                        if tracked.decide(index) { result.decided += 1 }
                    case .error:
                        if tracked.isInFlight(index) { result.refused += 1 }
                    case .ack where reply.isFrom(service):
                        // An action's ack carries the action's id as its correlation id.
                        guard tracked.isInFlight(index) else {
                            result.duplicates += 1
                            break
                        }
                        if let sentAt = tracked.acknowledge(index) {
                            result.completed += 1
                            result.latencies.append(Timestamp.monotonic() - sentAt)
                        }
                    default:
                        break
                    }
                }
                guard try bus.receive(into: &message.value, timeoutMilliseconds: 0) else { break }
            }
            lastProgress = Timestamp.monotonic()
            finished = lastProgress
        }
        result.seconds = finished - started
        tally.value.lost += result.lost
        tally.value.duplicates += result.duplicates
        tally.value.refused += result.refused
        return result
    }

    /// Decodes `reply` in full the first time its type comes, for the codec measurement.
    private func keepSample(_ reply: ReplyHeader) throws {
        guard sampled.value & reply.typeBit == 0 else { return }
        sampled.value |= reply.typeBit
        samples[reply.type] = try bus.codec.decode(frames: reply.frames)
    }

    /// Forgets the time counted in `clientTime` (after a warm-up).
    func resetClientTime() { timeSpent.value = ClientTime() }

    /// How long one receive of `next` waits with `remaining` seconds left: whole seconds while a
    /// second or more is left (the socket's receive timeout then changes about once a second, not
    /// before every receive), else the milliseconds left (at least 1).
    private static func receiveWait(_ remaining: Double) -> Int {
        remaining >= 1 ? Int(remaining) * 1000 : max(1, Int(remaining * 1000))
    }

    /// The next message with a known type and a readable header before `deadline`, skipping
    /// others and heartbeats; nil at the deadline. With `timed`, the reading time goes into `clientTime`.
    /// A message already waiting (an action's ack follows its decision on the same socket) is
    /// taken at once, without polling first (`BusConnection.receive(into:timeoutMilliseconds:)`).
    private func next(until deadline: Double, timed: Bool = false) throws -> ReplyHeader? {
        while true {
            let remaining = deadline - Timestamp.monotonic()
            guard remaining > 0 else { return nil }
            guard try bus.receive(into: &message.value, timeoutMilliseconds: Self.receiveWait(remaining)) else { continue }
            let started = timed ? Timestamp.monotonic() : 0
            let reply = ReplyHeader(message.value)
            if timed { timeSpent.value.decode += Timestamp.monotonic() - started }
            if let reply, !noteHeartbeat(reply) { return reply }
        }
    }
}

/// A reply as the client first reads it: the type (the topic frame's type part, among the types
/// the client subscribes to), and where the correlation id and service are in the header, read
/// only up to them (`EnvelopeView`): no body scanned, no string made. The body is
/// decoded only when needed (`bus.codec.decode(frames:)` of `frames`).
struct ReplyHeader {
    let type: MessageType
    /// The type's own bit (`1 << ` its place in `types`), for sets of types in one word.
    let typeBit: UInt64
    /// The message, in the receiver's storage: read before the next receive.
    private let message: ReceivedMessage
    private let correlation: Range<Int>
    private let sender: Range<Int>

    /// Every type by its topic bytes, the product client's own first (they are looked up in
    /// order); the weapon tap's client reads input-handling's and roster's answers too.
    private static let types: [(topic: [UInt8], type: MessageType)] = {
        let first: [MessageType] = [.presented, .dismissed, .ack, .error, .pong, .heartbeat]
        let all = (first + MessageType.allCases.filter { !first.contains($0) }).map { (Array($0.rawValue.utf8), $0) }
        precondition(all.count <= UInt64.bitWidth, "a type's bit (typeBit) is one of a word's")
        return all
    }()

    /// What a reply's header is read for (a set made once: one written as an array literal is
    /// built in an array at each use).
    private static let parts: EnvelopeView.Parts = [.service, .correlationId]

    /// The header of `message`; nil when it is not two frames, a type outside the
    /// vocabulary, or no correlation id and service.
    init?(_ message: ReceivedMessage) {
        guard message.count == 2, let index = message.withFrame(0, Self.typeIndex(ofTopic:)),
              let view = message.withFrame(1, { EnvelopeView($0, parts: Self.parts) }),
              let correlation = view.correlationId?.range, let sender = view.service?.range
        else { return nil }
        type = Self.types[index].type
        typeBit = 1 << UInt64(index)
        self.message = message
        self.correlation = correlation
        self.sender = sender
    }

    /// The place in `types` of topic frame `topic`'s type, by its part before any `/` (compared
    /// by length, then with `memcmp`).
    private static func typeIndex(ofTopic topic: UnsafeRawBufferPointer) -> Int? {
        guard let base = topic.baseAddress else { return nil }
        let length = memchr(base, Int32(Topic.separator), topic.count).map { base.distance(to: UnsafeRawPointer($0)) } ?? topic.count
        for index in types.indices where types[index].topic.count == length {
            if types[index].topic.withUnsafeBytes({ memcmp($0.baseAddress!, base, length) == 0 }) { return index }
        }
        return nil
    }

    /// The frames, copied: to decode the body or keep the message.
    var frames: [[UInt8]] { message.frames }
    /// The correlation id.
    var correlationId: String { text(correlation) }
    /// The sending service.
    var service: String { text(sender) }

    /// The correlation id's counter N when it is `prefix` followed by decimal digits (an id of
    /// this client's `PREFIX-N` form); nil otherwise.
    func correlationCounter(after prefix: [UInt8]) -> UInt64? {
        message.withFrame(1) { json in IDCounter.counter(of: UnsafeRawBufferPointer(rebasing: json[correlation]), after: prefix) }
    }

    /// Whether the correlation id is `id` (compared as bytes).
    func correlates(to id: String) -> Bool { header(correlation, is: id) }
    /// Whether the sending service is `service` (compared as bytes).
    func isFrom(_ service: String) -> Bool { header(sender, is: service) }

    /// The header's text at `range`.
    private func text(_ range: Range<Int>) -> String {
        message.withFrame(1) { String(decoding: UnsafeRawBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    /// Whether the bytes of the header at `range` are `text`'s UTF-8: read in place (a native
    /// string's are contiguous: no copy of `text`, no retain), else from a copy made contiguous.
    private func header(_ range: Range<Int>, is text: String) -> Bool {
        guard text.utf8.count == range.count else { return false }
        if let same = text.utf8.withContiguousStorageIfAvailable({ same(range, as: $0) }) { return same }
        var text = text
        return text.withUTF8 { same(range, as: $0) }
    }

    /// Whether the bytes of the header at `range` are `utf8` (as many).
    private func same(_ range: Range<Int>, as utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        range.isEmpty || message.withFrame(1) { json in
            memcmp(json.baseAddress! + range.lowerBound, utf8.baseAddress!, range.count) == 0
        }
    }
}

/// The counter N of an id `PREFIX-N` (`IDGenerator`'s form: the prefix ends with its `-`).
enum IDCounter {
    /// N, when `id` is `prefix` then 1 to 19 decimal digits; nil otherwise.
    static func counter(of id: UnsafeRawBufferPointer, after prefix: [UInt8]) -> UInt64? {
        guard id.count > prefix.count, id.count - prefix.count <= 19,
              prefix.withUnsafeBytes({ memcmp($0.baseAddress!, id.baseAddress!, prefix.count) }) == 0
        else { return nil }
        var value: UInt64 = 0
        for byte in id[prefix.count...] {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// `id`'s prefix up to and with its last `-`, and its counter; nil if it is not of that form.
    static func split(_ id: String) -> (prefix: [UInt8], counter: UInt64)? {
        let bytes = Array(id.utf8)
        guard let dash = bytes.lastIndex(of: UInt8(ascii: "-")) else { return nil }
        let prefix = Array(bytes[...dash])
        return bytes.withUnsafeBytes { counter(of: $0, after: prefix) }.map { (prefix, $0) }
    }
}

/// The actions of one sustained run, by their id's counter from the run's first: when each was
/// sent, and whether it was decided and acknowledged.
struct TrackedActions {
    private var prefix: [UInt8] = []
    private var base: UInt64 = 0
    private var sentAt: [Double] = []
    /// Per action: `decided` and `acknowledged` bits, or `notSent` (a counter this run skipped).
    private var state: [UInt8] = []
    private static let decided: UInt8 = 1, acknowledged: UInt8 = 2, notSent: UInt8 = 0xFF
    /// Sent and not yet acknowledged.
    private(set) var inFlight = 0

    /// Notes the action `id` sent at `time`.
    mutating func sent(_ id: String, at time: Double) throws {
        if sentAt.isEmpty {
            guard let (prefix, counter) = IDCounter.split(id) else { throw BenchError("an action id not of the form PREFIX-N: \(id)") }
            (self.prefix, base) = (prefix, counter)
        }
        var id = id
        guard let counter = id.withUTF8({ IDCounter.counter(of: UnsafeRawBufferPointer($0), after: prefix) }), counter >= base,
              counter - base < UInt64(Int.max)
        else { throw BenchError("an action id out of this run's sequence: \(id)") }
        let index = Int(counter - base)
        while sentAt.count <= index {
            sentAt.append(0)
            state.append(Self.notSent)
        }
        sentAt[index] = time
        state[index] = 0
        inFlight += 1
    }

    /// The index of the action `reply` correlates to, if it is one of this run's.
    func index(of reply: ReplyHeader) -> Int? {
        guard !prefix.isEmpty, let counter = reply.correlationCounter(after: prefix), counter >= base,
              counter - base < UInt64(state.count), state[Int(counter - base)] != Self.notSent
        else { return nil }
        return Int(counter - base)
    }

    /// Whether the action at `index` is sent and not acknowledged yet.
    func isInFlight(_ index: Int) -> Bool { state[index] & Self.acknowledged == 0 }

    /// Marks the action at `index` decided; true if it was in flight.
    mutating func decide(_ index: Int) -> Bool {
        guard isInFlight(index) else { return false }
        state[index] |= Self.decided
        return true
    }

    /// Marks the action at `index` acknowledged; when it was sent, if it was in flight, else nil.
    mutating func acknowledge(_ index: Int) -> Double? {
        guard isInFlight(index) else { return nil }
        state[index] |= Self.acknowledged
        inFlight -= 1
        return sentAt[index]
    }
}
