// The weapon tap: on an iPhone with the weapon picker shown, a tap on one of the picker's
// weapons, timed from the product client until roster says the monster's weapon changed. It goes
// client → input-handling → roster (2 hops); in 1efc655 and older trees, through
// presentation-policy first (3 hops). The client speaks the wire of both: it sends on the bare
// type (the bus keys a device's request itself) and, when `addressed`, sets `replyTo` and hears
// its own answers only; without it (a stack from before `replyTo`) it subscribes by type.

import Domain
import ProcessSupport
import Runtime
import Wire
import ZeroMQ
import ZeroMQTransport

/// What one action caused so far, from the answers carrying its id. It is done when one of
/// `final` (if any) has come, a service has acknowledged the action itself, and every request
/// passed on to another service has been acknowledged. Its hops are the services it went
/// through: those that acknowledged the action, plus one per request passed on.
struct TapChain {
    /// The action's id: everything it causes carries it as `correlationId`.
    let actionId: String
    /// The answers that end the timed part (empty: none awaited beyond the acknowledgements).
    let final: Set<MessageType>
    /// When the first of `final` came (monotonic seconds).
    private(set) var finalAt: Double?
    /// When the first message of each type came (monotonic seconds).
    private(set) var arrivals: [MessageType: Double] = [:]
    /// A service's refusal (`error`) or "nothing changed" (`action.unchanged`), if one came.
    private(set) var refusal: String?
    private var firstAcks = 0
    private var forwarded: Set<Forward> = []
    private var acknowledged: Set<Forward> = []

    init(actionId: String, final: Set<MessageType>) {
        self.actionId = actionId
        self.final = final
    }

    /// Takes in one message read from the bus (`ack` decoded, the others by header only).
    mutating func observe(_ type: MessageType, correlationId: String, service: String, ack: Ack?, at time: Double) {
        guard correlationId == actionId else { return }
        if arrivals[type] == nil { arrivals[type] = time }
        if finalAt == nil, final.contains(type) { finalAt = time }
        switch type {
        case .ack:
            guard let ack, !ack.duplicate else { return }
            if ack.handledId == actionId { firstAcks += 1 }
            acknowledged.insert(Forward(id: ack.handledId, service: service))
            forwarded.formUnion(ack.forwarded)
        case .error, .unchanged:
            refusal = refusal ?? "\(type.rawValue) from \(service)"
        default:
            break
        }
    }

    /// Everything the action caused has been acknowledged (and `final` has come).
    var isDone: Bool { firstAcks > 0 && (final.isEmpty || finalAt != nil) && forwarded.isSubset(of: acknowledged) }

    /// The services the action went through.
    var hops: Int { firstAcks + forwarded.count }
}

/// A client making weapon taps on one iPhone of a stack, owned by the thread that made it.
/// It also makes the product row's action, a tap on `+` of an iPad, on the same wire, so that
/// a comparison of two trees has that figure too.
final class TapClient {
    /// The answers read: the acknowledgements, refusals, presentation-policy's decisions, the
    /// picker's and the roster's answers.
    private static let answers: [MessageType] = [
        .ack, .error, .unchanged, .pong, .presented, .dismissed, .inputShown, .inputHidden, .selection, .monsterUpdated,
    ]
    /// The device: an iPhone, its profile sent with every action (as a `gateway` command does),
    /// which every stack understands.
    static let device = "bench-iphone"
    /// The monster whose weapon changes, and the picker's weapons tapped in turn (each differs
    /// from the last, so every tap changes the weapon).
    static let monster = "Dog-Bot"
    static let weapons = ["fire", "sword"]
    /// The iPad of the `add` taps.
    static let addDevice = "bench-ipad"

    let bus: BusConnection
    /// This client's address (`replyTo`), when addressed.
    let address: String?
    /// Taps that did not complete within the timeout.
    private(set) var lost = 0
    /// The services the last completed weapon tap went through.
    private(set) var hops = 0
    private var turn = 0
    /// Where each message is received, its storage kept from message to message.
    private var message = ReceivedMessage()

    /// Connects to the bus of `config`: with `addressed`, on its own address (`replyTo`, the
    /// answers on `type/ADDRESS`, the broadcasts by type); else by type.
    init(context: ZMQContext, config: BusConfig, addressed: Bool) throws {
        let address = addressed ? Topic.newAddress() : nil
        self.address = address
        let subscriptions = Self.answers.flatMap { type in
            Topic.answerSubscriptions(to: type, address: address)
        }
        bus = try BusConnection(context: context, config: config, service: "bench", subscriptions: subscriptions, lingerMilliseconds: 0)
    }

    /// Closes the sockets.
    func close() { bus.close() }

    /// Pings until every one of `services` has answered, then selects the monster on the device
    /// (its first action, which creates it).
    func prepare(services: [String], timeout: Double) throws {
        var waiting = Set(services)
        let deadline = Timestamp.monotonic() + timeout
        var retry = 0.01
        while !waiting.isEmpty {
            guard Timestamp.monotonic() < deadline else {
                throw BenchError("no answer from \(waiting.sorted().joined(separator: ", ")) through the bus")
            }
            let ping = try send(.ping(Ping()), device: nil)
            let resendAt = min(deadline, Timestamp.monotonic() + retry)
            retry = min(retry * 2, 0.2)
            while !waiting.isEmpty, try bus.receive(into: &message, timeoutMilliseconds: max(1, Int((resendAt - Timestamp.monotonic()) * 1000))) {
                if let reply = ReplyHeader(message), reply.type == .pong, reply.correlationId == ping.id { waiting.remove(reply.service) }
            }
        }
        while try bus.receiveFrames(timeoutMilliseconds: 50) != nil {}
        try complete(.select(Select(monster: Self.monster, profile: .iphone)), device: Self.device, final: [.selection])
    }

    /// Seconds from before a weapon tap's envelope is made until an answer is in.
    struct Times {
        /// Until input-handling's `input.hidden` (the picker goes: the tap is decided).
        let pickerHidden: Double
        /// Until roster's `roster.monster.updated` (the weapon has changed): the round trip.
        let weaponChanged: Double
    }

    /// One weapon tap: shows the picker (`tap weapon`, untimed), then taps the next weapon and
    /// times it until the weapon has changed. The rest of the tap's answers are awaited, untimed.
    /// Nil (counted as lost) when the tap is not complete within `timeout`.
    func roundTrip(timeout: Double = 2) throws -> Times? {
        guard try complete(.tap(Tap(element: "weapon", profile: .iphone)), device: Self.device, final: [.inputShown], timeout: timeout) != nil else {
            lost += 1
            return nil
        }
        let weapon = Self.weapons[turn % Self.weapons.count]
        turn += 1
        let started = Timestamp.monotonic()
        guard let chain = try complete(.tap(Tap(element: weapon, profile: .iphone)), device: Self.device, final: [.monsterUpdated], timeout: timeout),
              let hidden = chain.arrivals[.inputHidden], let changed = chain.arrivals[.monsterUpdated]
        else {
            lost += 1
            return nil
        }
        hops = chain.hops
        return Times(pickerHidden: hidden - started, weaponChanged: changed - started)
    }

    /// A tap on `+` of the iPad (the product row's action, its profile included): seconds from
    /// before its envelope is made until presentation-policy's decision (its popover presented,
    /// then dismissed, in turn) is in; the rest is awaited, untimed. Nil (counted as lost) when
    /// the tap is not complete within `timeout`.
    func addTap(timeout: Double = 2) throws -> Double? {
        let started = Timestamp.monotonic()
        guard let chain = try complete(.tap(Tap(element: "add", profile: .ipad)), device: Self.addDevice, final: [.presented, .dismissed], timeout: timeout),
              let decided = chain.finalAt
        else {
            lost += 1
            return nil
        }
        return decided - started
    }

    /// Reads and drops what still comes (acknowledgements of services that only read what an
    /// action published, which no chain awaits) until nothing has come for 5 ms, so that the
    /// stack is quiet before the next measurement.
    func settle() throws {
        while try bus.receiveFrames(timeoutMilliseconds: 5) != nil {}
    }

    /// Sends `body` for `device` and reads until its chain is done; the chain, or nil after
    /// `timeout`. A refusal or a "nothing changed" is an error: the measurement expects a change.
    @discardableResult
    private func complete(_ body: Body, device: String, final: Set<MessageType>, timeout: Double = 5) throws -> TapChain? {
        let sent = try send(body, device: device)
        var chain = TapChain(actionId: sent.id, final: final)
        let deadline = Timestamp.monotonic() + timeout
        while !chain.isDone {
            let remaining = deadline - Timestamp.monotonic()
            guard remaining > 0, try bus.receive(into: &message, timeoutMilliseconds: max(1, Int(remaining * 1000))) else { return nil }
            let at = Timestamp.monotonic()
            guard let reply = ReplyHeader(message), reply.correlationId == sent.id else { continue }
            let ack: Ack?
            if reply.type == .ack, case .ack(let body) = try bus.codec.decode(frames: reply.frames).body { ack = body } else { ack = nil }
            chain.observe(reply.type, correlationId: reply.correlationId, service: reply.service, ack: ack, at: at)
            if let refusal = chain.refusal {
                throw BenchError("\(body.type.rawValue) on \(device) was refused or changed nothing: \(refusal)")
            }
        }
        return chain
    }

    /// Sends `body` on its bare type (a stack that keys topics rekeys a device's request itself),
    /// with `replyTo` when addressed.
    private func send(_ body: Body, device: String?) throws -> Envelope {
        let envelope = bus.envelope(body, device: device, replyTo: address)
        try bus.sendRaw([Array(body.type.rawValue.utf8), try bus.codec.encode(envelope)])
        return envelope
    }
}
