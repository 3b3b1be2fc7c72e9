import Foundation
import MonitorKit

/// The monitor's model shared between its bus worker (which changes it) and the HTTP threads
/// (which read it): guarded by one lock, with a condition the readers wait on for a change.
final class MonitorHub: @unchecked Sendable {
    /// A consistent copy of what the pages show.
    struct Snapshot {
        let model: MonitorModel
        let counters: MonitorCounters
        /// One more at every change; wait for a larger one.
        let change: UInt64
    }

    private let condition = NSCondition()
    private var model = MonitorModel()
    private var counters = MonitorCounters()
    private var change: UInt64 = 0
    private var stopped = false

    /// Changes the model (and the counters), then wakes the waiting readers.
    func update<Result>(_ body: (inout MonitorModel, inout MonitorCounters) -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        let result = body(&model, &counters)
        change += 1
        condition.broadcast()
        return result
    }

    /// The model as it is now.
    func snapshot() -> Snapshot {
        condition.lock()
        defer { condition.unlock() }
        return Snapshot(model: model, counters: counters, change: change)
    }

    /// The model once it has changed since `after`, or after `timeout` seconds, or at the stop.
    func snapshot(changedSince after: UInt64, timeout: Double) -> Snapshot {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while change <= after && !stopped {
            if !condition.wait(until: deadline) { break }
        }
        return Snapshot(model: model, counters: counters, change: change)
    }

    /// True once the monitor is stopping: streams end.
    var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Stops: wakes every waiting reader for good.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
