import MonitorKit
import ProcessSupport
import Wire

/// One `/events` client: writes the events its cursor says it needs, at most 20 times a second
/// (changes in between are coalesced: the client gets the latest state). With nothing to send
/// it never waits: its connection is suspended with the waker until what a page shows changes
/// or its health table is due. Used only by libmicrohttpd's thread of its connection.
final class EventStream: @unchecked Sendable {
    /// The least time between two batches of events, in seconds.
    static let minimumInterval = 0.05

    private let hub: MonitorHub
    private let waker: ConnectionWaker
    private let connection: OpaquePointer
    private let slots: Locked<Int>
    private var cursor: EventStreamCursor
    private var pending: [UInt8] = Array("retry: 1000\n\n".utf8)
    private var offset = 0
    private var computedShown: UInt64 = 0
    private var sentAt = -Double.infinity

    /// A stream of `hub`'s changes on `connection`, for one device or (nil) the overview,
    /// holding one of the `slots` counted (open streams) until it ends.
    init(hub: MonitorHub, waker: ConnectionWaker, connection: OpaquePointer, device: String?, slots: Locked<Int>) {
        self.hub = hub
        self.waker = waker
        self.connection = connection
        self.slots = slots
        cursor = EventStreamCursor(device: device)
    }

    deinit {
        slots.withLock { $0 -= 1 }
    }

    /// Fills `buffer` with up to `capacity` bytes of events; 0 when there are none yet (the
    /// connection is then suspended until there may be); -1 (the end of the stream) once the
    /// monitor stops.
    func fill(_ buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        if offset == pending.count {
            let snapshot = hub.snapshot()
            if snapshot.stopped { return -1 }
            let now = Timestamp.monotonic()
            let notBefore = sentAt + Self.minimumInterval
            if now >= notBefore {
                computedShown = snapshot.model.shownVersion
                pending = Array(cursor.events(snapshot.model, now: now, monitor: snapshot.counters).utf8)
                offset = 0
                if !pending.isEmpty { sentAt = now }
            }
            if offset == pending.count {
                let parked = waker.park(
                    connection, wake: .shown, seen: computedShown, notBefore: notBefore,
                    deadline: max(notBefore, cursor.nextHealthAt))
                return parked ? 0 : -1
            }
        }
        let count = min(capacity, pending.count - offset)
        pending.withUnsafeBufferPointer { bytes in
            buffer.withMemoryRebound(to: UInt8.self, capacity: count) { target in
                target.update(from: bytes.baseAddress! + offset, count: count)
            }
        }
        offset += count
        return count
    }
}
