import Glibc

/// A mutex with a condition variable (pthread; timed waits on the monotonic clock): what
/// Foundation's `NSCondition` does, without loading Foundation.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Runs `body` holding the lock.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Wakes one waiter; the caller holds the lock.
    func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter; the caller holds the lock.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits (the caller holds the lock) until woken or `deadline` passes (nil: no deadline);
    /// false when the deadline passed. A waiter may wake spuriously: check what it waits for.
    func wait(until deadline: timespec?) -> Bool {
        guard var deadline else {
            pthread_cond_wait(condition, mutex)
            return true
        }
        return pthread_cond_timedwait(condition, mutex, &deadline) != ETIMEDOUT
    }

    /// The monotonic time `milliseconds` from now, or nil for a negative wait (for ever).
    static func deadline(afterMilliseconds milliseconds: Int) -> timespec? {
        guard milliseconds >= 0 else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = Int(now.tv_nsec) + (milliseconds % 1000) * 1_000_000
        return timespec(tv_sec: now.tv_sec + milliseconds / 1000 + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }
}
