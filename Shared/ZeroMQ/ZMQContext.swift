import CZeroMQ
import Synchronization

/// A libzmq context. Thread-safe (libzmq guarantees it), so it may be shared; its sockets may not.
public final class ZMQContext: @unchecked Sendable {
    /// The raw `void *` context, for the socket initialiser.
    let handle: UnsafeMutableRawPointer
    /// Whether `terminate` has begun: the handle must not be used after it.
    private let terminated = Mutex(false)

    /// Creates a context with libzmq's defaults (one I/O thread).
    public init() throws {
        guard let handle = zmq_ctx_new() else { throw ZMQError.last("zmq_ctx_new") }
        self.handle = handle
    }

    /// Makes every blocking call on every socket of this context return `ETERM`.
    /// Safe from any thread; sockets must still be closed by their owners.
    /// Does nothing once `terminate` has begun.
    public func shutdown() {
        terminated.withLock { isTerminated in
            if !isTerminated { zmq_ctx_shutdown(handle) }
        }
    }

    /// Ends the context: waits until every socket is closed and has sent what it still held,
    /// for at most its `ZMQ_LINGER`. The first call only; the deinitialiser calls it too.
    public func terminate() {
        let isFirst = terminated.withLock { isTerminated in
            defer { isTerminated = true }
            return !isTerminated
        }
        guard isFirst else { return }
        // zmq_ctx_term blocks until every socket is closed; retry if a signal interrupts it.
        while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
    }

    deinit {
        terminate()
    }
}

/// libzmq's version, e.g. `4.3.4`.
public var zmqVersion: String {
    var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
    zmq_version(&major, &minor, &patch)
    return "\(major).\(minor).\(patch)"
}

/// Whether this libzmq was built with `capability`, e.g. `"curve"`.
public func zmqHas(_ capability: String) -> Bool {
    zmq_has(capability) != 0
}
