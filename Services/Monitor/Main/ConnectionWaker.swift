import CMicroHTTPD
import Foundation
import Wire

/// The connections that wait, suspended in libmicrohttpd, so that its few threads never do:
/// `/events` streams with nothing to send (until what a page shows changes, or their health
/// table is due) and device pages waiting for presentation-policy's answer (until any change,
/// or their deadline). One thread, `run`, resumes each when its time comes, and does `chore`
/// every `choreInterval` seconds.
final class ConnectionWaker: @unchecked Sendable {
    /// Which change wakes a connection before its deadline.
    enum Wake {
        /// A change a page shows (`MonitorModel.shownVersion`).
        case shown
        /// Any change of the model.
        case any
    }

    private struct Parked {
        let wake: Wake
        /// The version (of `wake`'s kind) the connection has seen.
        let seen: UInt64
        /// Not woken by a change before this (monotonic seconds).
        let notBefore: Double
        /// Woken at this time whatever happens.
        let deadline: Double
    }

    private let condition = NSCondition()
    private let chore: @Sendable () -> Void
    private let choreInterval: Double
    private var parked: [OpaquePointer: Parked] = [:]
    private var change: UInt64 = 0
    private var shown: UInt64 = 0
    private var stopped = false

    /// A waker doing `chore` (outside its lock) every `choreInterval` seconds.
    init(choreInterval: Double, chore: @escaping @Sendable () -> Void) {
        self.choreInterval = choreInterval
        self.chore = chore
    }

    /// Notes a change of the model (`MonitorHub` calls it after each).
    func modelChanged(change newChange: UInt64, shown newShown: UInt64) {
        condition.withLock {
            change = max(change, newChange)
            shown = max(shown, newShown)
            condition.signal()
        }
    }

    /// Suspends `connection` (from one of libmicrohttpd's callbacks for it) until a change of
    /// kind `wake` past `seen` at or after `notBefore`, or `deadline`. False, and nothing
    /// suspended, once stopping.
    func park(_ connection: OpaquePointer, wake: Wake, seen: UInt64, notBefore: Double, deadline: Double) -> Bool {
        condition.withLock {
            guard !stopped else { return false }
            MHD_suspend_connection(connection)
            parked[connection] = Parked(wake: wake, seen: seen, notBefore: notBefore, deadline: deadline)
            condition.signal()
            return true
        }
    }

    /// Resumes connections as their time comes, until `stop`.
    func run() {
        var choreAt = Timestamp.monotonic() + choreInterval
        while true {
            let turn: Turn = condition.withLock {
                guard !stopped else { return .stop }
                let now = Timestamp.monotonic()
                if now >= choreAt { return .chore }
                var next = choreAt
                var due: [OpaquePointer] = []
                for (connection, entry) in parked {
                    let changed = (entry.wake == .shown ? shown : change) > entry.seen
                    let wakeAt = changed ? min(entry.notBefore, entry.deadline) : entry.deadline
                    if wakeAt <= now { due.append(connection) } else { next = min(next, wakeAt) }
                }
                for connection in due {
                    parked.removeValue(forKey: connection)
                    MHD_resume_connection(connection)
                }
                if due.isEmpty { _ = condition.wait(until: Date(timeIntervalSinceNow: next - now)) }
                return .again
            }
            switch turn {
            case .stop: return
            case .chore:
                // Outside the lock: the chore may take a while, and parking must not wait on it.
                chore()
                choreAt = Timestamp.monotonic() + choreInterval
            case .again: continue
            }
        }
    }

    /// What `run` does after a turn under the lock.
    private enum Turn { case stop, chore, again }

    /// Resumes every connection and suspends none from now on (libmicrohttpd must not be
    /// stopped with connections suspended); `run` returns.
    func stop() {
        condition.withLock {
            stopped = true
            for connection in parked.keys { MHD_resume_connection(connection) }
            parked.removeAll()
            condition.signal()
        }
    }
}
