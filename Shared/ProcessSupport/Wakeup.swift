import Glibc

/// A descriptor that another thread makes readable to wake a loop polling it beside its sockets
/// (a non-blocking pipe): `signal()` from any thread, `drain()` by the loop once it woke.
public final class Wakeup: Sendable {
    /// Readable from a `signal()` until the next `drain()`; poll it with `PollItem.fileDescriptor`.
    public let descriptor: Int32
    private let writer: Int32

    /// A new pipe, both ends non-blocking and closed on exec.
    public init() {
        var descriptors: [Int32] = [0, 0]
        precondition(pipe(&descriptors) == 0, "pipe() failed")
        for end in descriptors {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        descriptor = descriptors[0]
        writer = descriptors[1]
    }

    deinit {
        close(descriptor)
        close(writer)
    }

    /// Makes `descriptor` readable. A full pipe already is, so a write that would block is dropped.
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writer, &byte, 1)
    }

    /// Reads every waiting byte: `descriptor` is not readable until the next `signal()`.
    public func drain() {
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) > 0 {}
    }
}
