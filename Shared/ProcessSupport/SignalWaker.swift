import Glibc

/// Pipes the signal handler writes to, one slot per waker, with the signals each waker wants
/// (a bit mask): filled before the handler is installed, read by the handler, which may only
/// do async-signal-safe things such as `write`.
nonisolated(unsafe) private let signalPipes: UnsafeMutablePointer<Int32> = {
    let slots = UnsafeMutablePointer<Int32>.allocate(capacity: 16)
    slots.initialize(repeating: -1, count: 16)
    return slots
}()
nonisolated(unsafe) private let signalMasks: UnsafeMutablePointer<UInt64> = {
    let slots = UnsafeMutablePointer<UInt64>.allocate(capacity: 16)
    slots.initialize(repeating: 0, count: 16)
    return slots
}()

/// The process's signal handler: writes the signal number to the pipe of every waker that
/// asked for it.
private func writeToSignalPipes(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    for slot in 0..<16 where signalPipes[slot] >= 0 && signalMasks[slot] & (1 << UInt64(signal & 63)) != 0 {
        _ = write(signalPipes[slot], &byte, 1)
    }
}

/// Turns SIGTERM and SIGINT into a readable pipe, so a thread blocked in `poll` wakes up and
/// can finish its work and leave cleanly. The handler is installed (with `sigaction`, the
/// signals unblocked on the calling thread) before the initialiser returns, so no signal is
/// lost however early it comes. Create it on the main thread.
public final class SignalWaker: @unchecked Sendable {
    /// Becomes readable once a signal has arrived; poll it with `PollItem.fileDescriptor`.
    /// (With `onSignal`, a thread of the waker's own reads it instead.)
    public let readDescriptor: Int32
    private var thread: OSThread?

    /// Starts catching `signals` (default SIGTERM and SIGINT). With `onSignal`, a thread calls it
    /// with each signal's number (outside the signal handler, so it may do anything).
    public init(signals: [Int32] = [SIGTERM, SIGINT], onSignal: (@Sendable (Int32) -> Void)? = nil) {
        var descriptors: [Int32] = [0, 0]
        precondition(pipe(&descriptors) == 0, "pipe() failed")
        readDescriptor = descriptors[0]
        guard let slot = (0..<16).first(where: { signalPipes[$0] < 0 }) else { preconditionFailure("too many signal wakers") }
        signalMasks[slot] = signals.reduce(0) { $0 | 1 << UInt64($1 & 63) }
        signalPipes[slot] = descriptors[1]
        // A parent may have started this process with these signals blocked (a thread of a test
        // runner, say); a blocked signal would wait for ever, so unblock them here.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = writeToSignalPipes
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        if let onSignal {
            let descriptor = readDescriptor
            thread = OSThread {
                var byte: UInt8 = 0
                while read(descriptor, &byte, 1) == 1 { onSignal(Int32(byte)) }
            }
        }
    }

}

/// The shutdown signals of every process of the bus (the bus and each service): the first
/// SIGTERM or SIGINT makes `readDescriptor` readable and calls `onFirst`; a second one makes
/// the process leave at once (status 1), whatever it was doing — a drain, a send waiting on a
/// full queue. Create it on the main thread.
public final class ShutdownSignals: @unchecked Sendable {
    /// Becomes readable at the first signal; poll it with `PollItem.fileDescriptor`.
    public var readDescriptor: Int32 { first.descriptor }
    private let first = Wakeup()
    private var waker: SignalWaker?

    /// Starts catching SIGTERM and SIGINT; a second one is logged to `log` (in its format) as
    /// the process's last line. `onFirst` runs on the signal thread at the first.
    public init(log: Log, onFirst: (@Sendable () -> Void)? = nil) {
        let first = self.first
        // Only the waker's own thread calls the closure, one signal after the other.
        nonisolated(unsafe) var count = 0
        waker = SignalWaker { signal in
            count += 1
            if count == 1 {
                first.signal()
                onFirst?()
            } else {
                log.warn("a second signal (\(signal)): leaving at once")
                _exit(1)
            }
        }
    }
}
