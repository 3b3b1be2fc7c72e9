import Foundation

/// Messages read from the bus, waiting for the worker: the bus reader only copies frames in
/// here, so it always keeps reading. Bounded: when the worker falls this far behind, messages
/// are dropped (counted) and the worker describes every device again instead.
final class FrameQueue: @unchecked Sendable {
    /// One message as read, with when it was read (monotonic seconds).
    struct Item {
        let frames: [[UInt8]]
        let at: Double
    }

    /// The most bytes held at once.
    static let maxBytes = 64 << 20

    private let condition = NSCondition()
    private var items: [Item] = []
    private var bytes = 0
    private var droppedSinceTaken: UInt64 = 0
    private var closed = false

    /// Adds messages; those that do not fit are dropped and counted.
    func push(_ batch: [Item]) {
        condition.withLock {
            for item in batch {
                let size = item.frames.reduce(0) { $0 + $1.count }
                if bytes + size > Self.maxBytes {
                    droppedSinceTaken += 1
                } else {
                    items.append(item)
                    bytes += size
                }
            }
            condition.broadcast()
        }
    }

    /// Everything waiting, and how many were dropped since the last call; waits up to `timeout`
    /// seconds for something. `nil` once closed and empty.
    func take(timeout: Double) -> (items: [Item], dropped: UInt64)? {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while items.isEmpty && droppedSinceTaken == 0 && !closed {
                if !condition.wait(until: deadline) { break }
            }
            if closed && items.isEmpty { return nil }
            let taken = (items, droppedSinceTaken)
            items = []
            bytes = 0
            droppedSinceTaken = 0
            return taken
        }
    }

    /// How many messages are waiting.
    var count: Int {
        condition.withLock { items.count }
    }

    /// Wakes the worker (to send what a page asked for).
    func poke() {
        condition.withLock { condition.broadcast() }
    }

    /// No more messages: the worker takes what is left, then stops.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }
}
