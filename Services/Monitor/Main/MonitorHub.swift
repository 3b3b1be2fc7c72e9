import Foundation
import MonitorKit

/// The monitor's model shared between its bus worker (which changes it) and the HTTP threads
/// (which read it), guarded by one lock. After each change it tells `changed` (the waker of
/// the suspended connections) the new change count and shown version; it never waits itself.
final class MonitorHub: @unchecked Sendable {
    /// A consistent copy of what the pages show.
    struct Snapshot {
        let model: MonitorModel
        let counters: MonitorCounters
        /// One more at every change.
        let change: UInt64
        /// True once the monitor is stopping: streams end.
        let stopped: Bool
    }

    private let lock = NSLock()
    private let changed: @Sendable (_ change: UInt64, _ shown: UInt64) -> Void
    private var model = MonitorModel()
    private var counters = MonitorCounters()
    private var change: UInt64 = 0
    private var stopped = false

    /// A hub that reports each change to `changed` (outside its lock).
    init(changed: @escaping @Sendable (_ change: UInt64, _ shown: UInt64) -> Void) {
        self.changed = changed
    }

    /// Changes the model (and the counters), then reports the change.
    func update<Result>(_ body: (inout MonitorModel, inout MonitorCounters) -> Result) -> Result {
        let (result, now, shown) = lock.withLock {
            let result = body(&model, &counters)
            change += 1
            return (result, change, model.shownVersion)
        }
        changed(now, shown)
        return result
    }

    /// The model as it is now.
    func snapshot() -> Snapshot {
        lock.withLock { Snapshot(model: model, counters: counters, change: change, stopped: stopped) }
    }

    /// Stops: streams end at their next turn.
    func stop() {
        lock.withLock { stopped = true }
    }
}
