import Glibc
import MonitorKit
import Wire

/// One `/events` client: waits for the model to change and writes the events its cursor says
/// it needs, at most 20 times a second (changes in between are coalesced: the client gets the
/// latest state). Used only by its connection's thread.
final class EventStream: @unchecked Sendable {
    /// The least time between two batches of events, in seconds.
    static let minimumInterval = 0.05

    private let hub: MonitorHub
    private var cursor: EventStreamCursor
    private var pending: [UInt8] = Array("retry: 1000\n\n".utf8)
    private var offset = 0
    private var seen: UInt64?
    private var sentAt = -Double.infinity

    /// A stream of `hub`'s changes, for one device or (nil) the overview.
    init(hub: MonitorHub, device: String?) {
        self.hub = hub
        cursor = EventStreamCursor(device: device)
    }

    /// Fills `buffer` with up to `capacity` bytes of events, waiting for some if there are none
    /// yet; -1 (the end of the stream) once the monitor stops.
    func fill(_ buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while offset == pending.count {
            let early = sentAt + Self.minimumInterval - Timestamp.monotonic()
            if early > 0 { usleep(useconds_t(early * 1_000_000)) }
            let snapshot = seen.map { hub.snapshot(changedSince: $0, timeout: 1) } ?? hub.snapshot()
            if hub.isStopped { return -1 }
            seen = snapshot.change
            pending = Array(cursor.events(snapshot.model, now: Timestamp.monotonic(), monitor: snapshot.counters).utf8)
            offset = 0
            if !pending.isEmpty { sentAt = Timestamp.monotonic() }
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
