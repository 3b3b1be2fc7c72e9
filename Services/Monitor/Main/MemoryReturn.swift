import CLinux
import ProcessSupport

/// Gives memory back to the system once many connections have closed: what their buffers and
/// streams used is freed to malloc's arenas, which keep it (RSS stays at its peak) unless told
/// otherwise. Checked every few seconds by the waker; cheap when nothing closed.
final class MemoryReturn: Sendable {
    /// Connections closed since the last return that make another worth it.
    static let closedBeforeReturn = 64

    /// Connections open on every listener, and the most since memory was last returned.
    private let counts = Locked((open: 0, peak: 0))

    /// A connection opened.
    func opened() {
        counts.withLock {
            $0.open += 1
            $0.peak = max($0.peak, $0.open)
        }
    }

    /// A connection closed.
    func closed() {
        counts.withLock { $0.open -= 1 }
    }

    /// Returns free memory to the system when many connections have closed since the last time.
    func check() {
        let due = counts.withLock { counts -> Bool in
            guard counts.peak - counts.open >= Self.closedBeforeReturn else { return false }
            counts.peak = counts.open
            return true
        }
        if due { malloc_trim(0) }
    }
}
