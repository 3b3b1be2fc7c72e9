import JSON
import Runtime
import ThreadOwnership
import Wire
import ZeroMQ

/// A connection's sockets on a pair of buses (docs/scaling.md): a PUB socket on each bus's
/// frontend, each message sent to both (`send`); a SUB socket on each bus's backend, read in
/// turn in one poll on the connection's thread, so that each copy is known by the bus it came
/// from, and each message's pair copy is dropped (`BusPairFilter`) and counted. Owned by its
/// connection's thread.
final class BusPair {
    /// Bus A's publisher, then bus B's.
    let publishers: [ZMQSocket]
    /// Bus A's subscriber, then bus B's.
    let subscribers: [ZMQSocket]
    private let filter: ThreadOwned<BusPairFilter>
    /// The bus read first next time: each in turn, so neither starves the other.
    private let turn = ThreadOwned(0)
    /// What `wait` polls: both subscribers and the stop and wake descriptors it was last given.
    private let waitPoller = ThreadOwned<(descriptors: WaitDescriptors, poller: Poller)?>(nil)
    /// Pair copies dropped since the start.
    var copies: UInt64 { dropped.value }
    private let dropped = ThreadOwned<UInt64>(0)
    /// Messages one bus did not take while the other did, since the start.
    var skips: UInt64 { skipped.value }
    private let skipped = ThreadOwned<UInt64>(0)
    /// Seconds a bus may refuse every message (its queue full) before it is skipped.
    private let skipAfter: Double
    /// Since when (monotonic seconds) each bus has refused every message offered, if it does.
    private let refusingSince = ThreadOwned<[Double?]>([nil, nil])

    /// Publishes on `publishers` and reads `subscribers` (bus A's, then bus B's), remembering up
    /// to `capacity` ids; a bus refusing everything for `skipAfter` seconds is skipped.
    init(publishers: [ZMQSocket], subscribers: [ZMQSocket], capacity: Int, skipAfter: Double) {
        self.publishers = publishers
        self.subscribers = subscribers
        self.skipAfter = skipAfter
        filter = ThreadOwned(BusPairFilter(capacity: capacity))
    }

    /// Sends one message to both buses with `attempt` (a send that does not wait: false when that
    /// bus's queue is full). A bus that refuses it is waited for, as one bus would be, unless it
    /// has refused everything for `skipAfter` seconds while the other takes the message: it is
    /// then skipped (counted), its receivers having the other's copy. So a bus that hangs with
    /// its connections open (its queue full) holds up one message for `skipAfter`, then none; and
    /// a message goes to one bus only when the other has taken nothing for that long. Gives up
    /// after `giveUpAfter` seconds if neither bus took it. Returns whether it waited, and whether
    /// a bus took it.
    func send(giveUpAfter: Double, _ attempt: (ZMQSocket) throws -> Bool) throws -> (waited: Bool, sent: Bool) {
        var pending = [true, true]
        var waited = false
        var giveUp: Double?
        while true {
            let now = Timestamp.monotonic()
            for bus in publishers.indices where pending[bus] {
                if try attempt(publishers[bus]) {
                    pending[bus] = false
                    refusingSince.value[bus] = nil
                } else if refusingSince.value[bus] == nil {
                    refusingSince.value[bus] = now
                }
            }
            guard let late = pending.firstIndex(of: true) else { return (waited, true) }
            var timeout = 100
            if pending.contains(false) {
                let skipAt = (refusingSince.value[late] ?? now) + skipAfter
                if now >= skipAt {
                    skipped.value += 1
                    return (waited, true)
                }
                timeout = min(timeout, max(1, Int(((skipAt - now) * 1000).rounded(.up))))
            } else {
                let deadline = giveUp ?? now + giveUpAfter
                giveUp = deadline
                if now >= deadline { return (waited, false) }
            }
            waited = true
            _ = try poll(publishers.indices.filter { pending[$0] }.map { .socketWritable(publishers[$0]) }, timeoutMilliseconds: timeout)
        }
    }

    /// The next message to handle if one is waiting now, its pair copies dropped.
    func receiveFramesNow() throws -> [[UInt8]]? {
        var frames: [[UInt8]]?
        let found = try takeNow({ frames = try $0.receive(dontWait: true); return frames != nil }) {
            guard let frames, frames.count >= 2 else { return nil }
            return frames[1].withUnsafeBytes(Self.id)
        }
        return found ? frames : nil
    }

    /// `receiveFramesNow` into `message`, reusing its storage; false when none is waiting.
    func receiveNow(into message: inout ReceivedMessage) throws -> Bool {
        try takeNow({ try $0.receive(into: &message, timeoutMilliseconds: 0) }) {
            message.count >= 2 ? message.withFrame(1, Self.id) : nil
        }
    }

    /// Waits up to `timeoutMilliseconds` (-1: for ever) until `now` finds a message to handle.
    func receive(timeoutMilliseconds: Int, _ now: () throws -> Bool) throws -> Bool {
        let deadline = timeoutMilliseconds < 0 ? nil : Timestamp.monotonic() + Double(timeoutMilliseconds) / 1000
        while true {
            if try now() { return true }
            var remaining = -1
            if let deadline {
                remaining = Int(((deadline - Timestamp.monotonic()) * 1000).rounded(.up))
                guard remaining > 0 else { return false }
            }
            _ = try poll(subscribers.map { .socket($0) }, timeoutMilliseconds: remaining)
        }
    }

    /// Waits up to `timeoutMilliseconds` for a message on either bus or for `stopDescriptor`. A
    /// message waiting may be a pair copy: `receiveFramesNow` may then find nothing to handle.
    func wait(timeoutMilliseconds: Int, stopDescriptor: Int32?, wakeDescriptor: Int32?) throws -> TransportWake {
        let descriptors = WaitDescriptors(stop: stopDescriptor, wake: wakeDescriptor, after: subscribers.count)
        if waitPoller.value?.descriptors != descriptors {
            waitPoller.value = (descriptors, try Poller(subscribers.map { PollItem.socket($0) } + descriptors.items))
        }
        let poller = waitPoller.value!.poller
        try poller.wait(timeoutMilliseconds: timeoutMilliseconds)
        return descriptors.wake(message: subscribers.indices.contains { poller.isReady($0) }, poller)
    }

    /// Takes messages from the buses in turn with `receive` (a receive that does not wait; false:
    /// none) until one is to be handled (`id` reads the id of the one just received); false when
    /// none waits. A message without a readable id is handled (refused on its own, each copy).
    private func takeNow(_ receive: (ZMQSocket) throws -> Bool, id: () -> String?) throws -> Bool {
        for _ in subscribers.indices {
            let bus = turn.value
            turn.value = (bus + 1) % subscribers.count
            while try receive(subscribers[bus]) {
                guard let id = id(), !filter.value.admit(id, from: bus) else { return true }
                dropped.value += 1
            }
        }
        return false
    }

    /// The `id` of the message whose JSON is `json`, if it is readable.
    private static func id(_ json: UnsafeRawBufferPointer) -> String? {
        guard let view = EnvelopeView(json, parts: .id), let key = view.id else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: json[key.range]), as: UTF8.self)
    }
}
