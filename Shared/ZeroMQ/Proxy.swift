import CZeroMQ

/// Runs libzmq's built-in proxy between `frontend` and `backend` (e.g. XSUB and XPUB) on the
/// calling thread until the context is shut down, then returns. `capture`, if given, receives
/// a copy of every message. A signal interrupting the proxy does not stop it.
public func runProxy(frontend: ZMQSocket, backend: ZMQSocket, capture: ZMQSocket? = nil) throws {
    while zmq_proxy(frontend.handle, backend.handle, capture?.handle) != 0 {
        let error = ZMQError.last("zmq_proxy")
        if error.isTerminated { return }
        if !error.isInterrupted { throw error }
    }
}
