#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Turns SIGTERM and SIGINT into a readable pipe, so a thread blocked in `poll` wakes up and
/// can finish its work and leave cleanly.
public final class SignalWaker: @unchecked Sendable {
    /// Becomes readable once a signal has arrived; poll it with `PollItem.fileDescriptor`.
    public let readDescriptor: Int32
    private let writeDescriptor: Int32
    private var sources: [any DispatchSourceSignal] = []

    /// Starts catching `signals` (default SIGTERM and SIGINT); `onSignal` also runs for each.
    public init(signals: [Int32] = [SIGTERM, SIGINT], onSignal: (@Sendable (Int32) -> Void)? = nil) {
        var descriptors: [Int32] = [0, 0]
        precondition(pipe(&descriptors) == 0, "pipe() failed")
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        let writer = writeDescriptor
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                var byte: UInt8 = 1
                _ = write(writer, &byte, 1)
                onSignal?(number)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Whether a signal has arrived (without blocking).
    public var hasFired: Bool {
        var descriptor = pollfd(fd: readDescriptor, events: Int16(POLLIN), revents: 0)
        return Glibc.poll(&descriptor, 1, 0) > 0
    }
}
