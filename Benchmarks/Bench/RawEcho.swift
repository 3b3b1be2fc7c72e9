// `bench --raw-echo`: the baseline's echo process. It plays the part of a service with libzmq
// alone: SUB from the bus's backend, PUB to its frontend, and every `bench.ping` message sent
// straight back as `bench.pong` with the same payload — no decoding, no encoding, no ack
// (unless a ping asks it for extra work first: `bench --latency-cost`). `bench --raw-echo
// --member K N` is one of N echoes answering in the shape of sharded instances instead
// (`RawWire.ownerTopic`), the sharded row's reference; `--shape` answers in another shape of
// replication instead (`RawWire.Replication`, `bench --raw-shapes`).

import Glibc
import ProcessSupport
import ZeroMQ

/// The baseline's wire format: two frames like the product's (topic, payload), topics as long as
/// `device.tap`, the first 8 bytes of the payload holding a sequence number. In a ping, bytes
/// 8..<16 ask for the product's shape of answer when they are not zero: two messages (like the
/// decision and the ack), of the sizes in their low and high 32 bits. Bytes 16..<24, when not
/// zero, ask the echo to run `Spin` for that many iterations before it answers. Bytes 24..<32,
/// when not zero, are the sender's address: the answers go to `replyTopic(of:)` instead of
/// `pongTopic`, so that clients running at once each hear only their own (as the product's do).
/// A ping to a member of several echoes (`ownerTopic`) is answered as a sharded instance
/// answers an action: by default (`Replication.active`) the next member hears it too and sends
/// the second answer while the owner sends the first; in the `chain` shape the owner sends its
/// first answer and an update of the size in bytes 16..<24 to the next member (`standbyTopic`),
/// which sends the second answer once it has it.
enum RawWire {
    /// Client → echo.
    static let pingTopic = Array("bench.ping".utf8)
    /// Echo → client.
    static let pongTopic = Array("bench.pong".utf8)

    /// Echo → the client of `address` (not zero): `bench.reply/` and the address in 16 hex
    /// digits, which no other address's topic starts with, nor `pongTopic`.
    static func replyTopic(of address: UInt64) -> [UInt8] {
        let digits = Array(String(address, radix: 16).utf8)
        return Array("bench.reply/".utf8) + [UInt8](repeating: UInt8(ascii: "0"), count: 16 - digits.count) + digits
    }
    /// Client → member `member` of several echoes, as its owner.
    static func ownerTopic(_ member: Int) -> [UInt8] { Array("bench.own/\(member)/".utf8) }
    /// Member → member `member`, as the standby of the sender's pings.
    static func standbyTopic(_ member: Int) -> [UInt8] { standbyPrefix + Array("\(member)/".utf8) }
    /// What every `standbyTopic` starts with.
    static let standbyPrefix = Array("bench.standby/".utf8)
    /// Member → the bus, in the `direct` shape: the endpoint its updates leave from, announced
    /// while it is idle, for the next member to connect to.
    static func endpointTopic(_ member: Int) -> [UInt8] { endpointPrefix + Array("\(member)/".utf8) }
    /// What every `endpointTopic` starts with.
    static let endpointPrefix = Array("bench.endpoint/".utf8)
    /// The one-way flood (client → client's own subscriber thread).
    static let floodTopic = Array("bench.flood".utf8)
    /// Sequence number of a probe message (proves a path is live; not counted).
    static let probe = UInt64.max
    /// Sequence number of the flood's end marker (the total sent follows it).
    static let end = UInt64.max - 1
    /// Sequence number of an `acknowledged` shape's answer to a batch: the sequences it answers follow.
    static let acknowledgements = UInt64.max - 2

    /// One answer to every update of a batch: `acknowledgements`, the count, then their
    /// sequences, padded to at least `size` bytes.
    static func acknowledging(_ sequences: [UInt64], size: Int) -> [UInt8] {
        var payload = [UInt8](repeating: UInt8(ascii: "x"), count: max(size, 16 + 8 * sequences.count))
        stamp(acknowledgements, into: &payload)
        stamp(UInt64(sequences.count), into: &payload, at: 8)
        for (index, sequence) in sequences.enumerated() { stamp(sequence, into: &payload, at: 16 + 8 * index) }
        return payload
    }

    /// The sequences an `acknowledging` payload answers (none when it is cut short).
    static func acknowledged(in payload: [UInt8]) -> [UInt64] {
        let count = Int(truncatingIfNeeded: value(in: payload, at: 8))
        guard count >= 0, count <= (payload.count - 16) / 8 else { return [] }
        return (0..<count).map { value(in: payload, at: 16 + 8 * $0) }
    }

    /// The sequence number in `payload`'s first 8 bytes.
    static func sequence(of payload: [UInt8]) -> UInt64 {
        guard payload.count >= 8 else { return probe }
        return payload.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
    }

    /// Writes `value` into `payload`'s bytes at `offset` (8 bytes).
    static func stamp(_ value: UInt64, into payload: inout [UInt8], at offset: Int = 0) {
        payload.withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt64.self) }
    }

    /// How members of several echoes answer a ping: the shapes of replication `bench
    /// --raw-shapes` compares, libzmq alone.
    enum Replication: String, CaseIterable, Sendable {
        /// The sharded instances' shape: the ping reaches the owner and the next member (its
        /// standby); the owner sends the first answer, the standby the second, neither waiting.
        case active
        /// The first answer from the owner, an update to the next member, the second answer from it.
        case chain
        /// The owner sends only the update; the next member sends both answers once it has it.
        case tail
        /// As `chain`, with the owner's updates for one pass of its loop sent as one message
        /// (at most `batchLimit`).
        case batched
        /// As `batched`, the next member answering each batch with one message listing what it
        /// acknowledges (`acknowledging`), as a standby could acknowledge up to a sequence.
        case acknowledged
        /// No replication: the owner sends both answers, as one echo does for its share.
        case split
        /// As `chain`, the update going straight to the next member (its own PUB to the next
        /// member's SUB, over TCP) instead of through the bus.
        case direct

        /// Whether the owner's updates travel in batches (`pack`).
        var batchesUpdates: Bool { self == .batched || self == .acknowledged }
    }

    /// Updates in one `batched` message: 32 of the product's size stay under the bus's 64 KiB.
    static let batchLimit = 32

    /// Updates sent as one payload, one after another: each holds its own size in bytes 16..<24,
    /// as the ping it answers asked for.
    static func pack(_ updates: [[UInt8]]) -> [UInt8] { updates.count == 1 ? updates[0] : Array(updates.joined()) }

    /// The updates `pack` put in `payload`; nil when it does not divide into them.
    static func unpack(_ payload: [UInt8]) -> [[UInt8]]? {
        var updates: [[UInt8]] = []
        var offset = 0
        while offset < payload.count {
            guard payload.count - offset >= 32 else { return nil }
            let size = Int(truncatingIfNeeded: value(in: payload, at: offset + 16))
            guard size >= 32, size <= payload.count - offset else { return nil }
            updates.append(Array(payload[offset..<offset + size]))
            offset += size
        }
        return updates
    }

    /// The 8 bytes at `offset` of `payload`.
    static func value(in payload: [UInt8], at offset: Int) -> UInt64 {
        guard payload.count >= offset + 8 else { return 0 }
        return payload.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }
}

enum RawEcho {
    /// Runs the echo until it is terminated, or its parent (the bench) is gone; as member
    /// `member.index` of `member.count` echoes, answering in `replication`'s shape, when given.
    static func run(member: (index: Int, count: Int)? = nil, replication: RawWire.Replication = .active) -> Int32 {
        let config: BusConfig
        do {
            config = try BusConfig.fromEnvironment()
        } catch {
            Log.standardError("raw-echo: \(error)\n")
            return 2
        }
        let parent = getppid()
        do {
            let context = try ZMQContext()
            let publisher = try ZMQSocket(context, .pub)
            let subscriber = try ZMQSocket(context, .sub)
            defer {
                publisher.close()
                subscriber.close()
            }
            // The `direct` shape's link: updates out to the next member, in from the one before.
            let direct = member != nil && replication == .direct
            let peerOut = direct ? try ZMQSocket(context, .pub) : nil
            let peerIn = direct ? try ZMQSocket(context, .sub) : nil
            defer {
                peerOut?.close()
                peerIn?.close()
            }
            var topics = member.map { [RawWire.ownerTopic($0.index), RawWire.standbyTopic($0.index)] } ?? [RawWire.pingTopic]
            // The `active` shape's standby hears the pings of the member before it.
            let standingBy = member.flatMap { replication == .active ? RawWire.ownerTopic(($0.index + $0.count - 1) % $0.count) : nil }
            if let standingBy { topics.append(standingBy) }
            var announcement: [[UInt8]] = []
            var linked = false
            if let member, let peerOut, let peerIn {
                try peerOut.set(.sendHighWaterMark, Int32(0))
                try peerOut.bind("tcp://127.0.0.1:*")
                announcement = [RawWire.endpointTopic(member.index), Array(peerOut.lastEndpoint.utf8)]
                try peerIn.subscribe(String(decoding: RawWire.standbyTopic(member.index), as: UTF8.self))
                topics.append(RawWire.endpointTopic((member.index + member.count - 1) % member.count))
            }
            for topic in topics { try subscriber.subscribe(String(decoding: topic, as: UTF8.self)) }
            let nextStandby = member.map { RawWire.standbyTopic(($0.index + 1) % $0.count) }
            let updates = peerOut ?? publisher
            let polled: [PollItem] = [.socket(subscriber)] + (peerIn.map { [.socket($0)] } ?? [])
            try publisher.set(.sendHighWaterMark, Int32(0))  // as the client's (see RawClient)
            try publisher.connect(config.frontend)
            try subscriber.connect(config.backend)
            var answers: [Int: [UInt8]] = [:]
            var replyTopics: [UInt64: [UInt8]] = [:]
            var batch: [[UInt8]] = []
            /// An answer of `size` bytes carrying `sequence` (the same storage for each size).
            func sized(_ size: Int, _ sequence: UInt64) -> [UInt8] {
                var answer = answers[size] ?? [UInt8](repeating: UInt8(ascii: "x"), count: max(32, size))
                RawWire.stamp(sequence, into: &answer)
                answers[size] = answer
                return answer
            }
            /// The topic of the answers to a ping or update (its bytes 24..<32).
            func answerTopic(_ payload: [UInt8]) -> [UInt8] {
                let address = RawWire.value(in: payload, at: 24)
                guard address != 0 else { return RawWire.pongTopic }
                let topic = replyTopics[address] ?? RawWire.replyTopic(of: address)
                replyTopics[address] = topic
                return topic
            }
            /// The answers a member owes for `payload`, a ping (as its owner) or an update (as
            /// the next member).
            func answer(_ payload: [UInt8], asStandby: Bool, to nextStandby: [UInt8]) throws {
                let topic = answerTopic(payload)
                let shape = RawWire.value(in: payload, at: 8)
                let sequence = RawWire.sequence(of: payload)
                if asStandby {
                    if replication == .tail { try publisher.send([topic, sized(Int(shape & 0xffff_ffff), sequence)]) }
                    try publisher.send([topic, sized(Int(shape >> 32), sequence)])
                    return
                }
                if replication != .tail { try publisher.send([topic, sized(Int(shape & 0xffff_ffff), sequence)]) }
                if replication == .active { return }
                if replication == .split {
                    try publisher.send([topic, sized(Int(shape >> 32), sequence)])
                    return
                }
                var update = sized(Int(RawWire.value(in: payload, at: 16)), sequence)
                update.replaceSubrange(0..<32, with: payload[0..<32])
                guard replication.batchesUpdates else {
                    try updates.send([nextStandby, update])
                    return
                }
                batch.append(update)
                if batch.count == RawWire.batchLimit { try flush(to: nextStandby) }
            }
            func flush(to nextStandby: [UInt8]) throws {
                guard !batch.isEmpty else { return }
                try publisher.send([nextStandby, RawWire.pack(batch)])
                batch.removeAll(keepingCapacity: true)
            }
            while true {
                // Like ServiceRuntime: poll, then take everything waiting in one go. Idle in the
                // `direct` shape, announce the endpoint (until the next member has it, it misses
                // updates, and the client's handshake tries again).
                let ready = try poll(polled, timeoutMilliseconds: direct ? 100 : 1000)
                guard ready.contains(true) else {
                    if getppid() != parent { return 0 }
                    if direct { try publisher.send(announcement) }
                    continue
                }
                let fromPeer = ready.count > 1 && ready[1] ? peerIn : nil
                while true {
                    guard let frames = try fromPeer?.receive(dontWait: true) ?? subscriber.receive(dontWait: true) else {
                        if let nextStandby { try flush(to: nextStandby) }
                        break
                    }
                    guard frames.count == 2 else { continue }
                    if direct, frames[0].starts(with: RawWire.endpointPrefix) {
                        if !linked { try peerIn?.connect(String(decoding: frames[1], as: UTF8.self)) }
                        linked = true
                        continue
                    }
                    if let nextStandby, frames[1].count >= 32 {
                        guard frames[0].starts(with: RawWire.standbyPrefix) || frames[0] == standingBy else {
                            try answer(frames[1], asStandby: false, to: nextStandby)
                            continue
                        }
                        guard replication.batchesUpdates else {
                            try answer(frames[1], asStandby: true, to: nextStandby)
                            continue
                        }
                        let updates = RawWire.unpack(frames[1]) ?? []
                        guard replication == .acknowledged, let last = updates.last else {
                            for update in updates { try answer(update, asStandby: true, to: nextStandby) }
                            continue
                        }
                        // One client in the bench: its address is the last update's.
                        let size = Int(RawWire.value(in: last, at: 8) >> 32)
                        try publisher.send([answerTopic(last), RawWire.acknowledging(updates.map(RawWire.sequence(of:)), size: size)])
                        continue
                    }
                    let topic = answerTopic(frames[1])
                    let shape = RawWire.value(in: frames[1], at: 8)
                    if shape == 0 {
                        try publisher.send([topic, frames[1]])
                        continue
                    }
                    // Product-shaped: two answers, each carrying the ping's sequence number (and
                    // the result of the work it asked for, if any).
                    let work = Spin.run(Int(truncatingIfNeeded: RawWire.value(in: frames[1], at: 16)))
                    let sequence = RawWire.sequence(of: frames[1])
                    for size in [Int(shape & 0xffff_ffff), Int(shape >> 32)] {
                        var reply = sized(size, sequence)
                        RawWire.stamp(work, into: &reply, at: 16)
                        try publisher.send([topic, reply])
                    }
                }
            }
        } catch {
            Log.standardError("raw-echo: \(error)\n")
            return 1
        }
    }
}

/// Extra work for the echo to do before it answers, in a known number of instructions: a chain
/// of multiply-add-xorshift steps the compiler can neither skip nor fold into fewer (each step
/// needs the last one's result, the shift keeps two steps from combining into one multiply-add,
/// and the result goes back in the answer).
enum Spin {
    /// Instructions per iteration, counted by callgrind (`bench --callgrind-run raw-spin`:
    /// `Spin.run`'s own instructions ÷ the iterations it ran).
    static let instructionsPerIteration = 5.5
    /// The iterations a `raw-spin` ping asks for, under callgrind.
    static let counted = 25_000

    /// Runs `iterations` steps; returns the last value (0 for none).
    @inline(never)
    static func run(_ iterations: Int) -> UInt64 {
        var value: UInt64 = 0
        var left = iterations
        while left > 0 {
            value = (value &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407) ^ (value >> 29)
            left -= 1
        }
        return value
    }
}
