import CZeroMQ

/// A libzmq context. Thread-safe (libzmq guarantees it), so it may be shared; its sockets may not.
public final class ZMQContext: @unchecked Sendable {
    /// The raw `void *` context, for the socket initialiser.
    let handle: UnsafeMutableRawPointer

    /// Creates a context with libzmq's defaults (one I/O thread).
    public init() throws {
        guard let handle = zmq_ctx_new() else { throw ZMQError.last("zmq_ctx_new") }
        self.handle = handle
    }

    /// Makes every blocking call on every socket of this context return `ETERM`.
    /// Safe from any thread; sockets must still be closed by their owners.
    public func shutdown() {
        zmq_ctx_shutdown(handle)
    }

    deinit {
        // zmq_ctx_term blocks until every socket is closed; retry if a signal interrupts it.
        while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
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
