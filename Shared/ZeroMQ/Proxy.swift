import CZeroMQ

/// Runs libzmq's steerable proxy between `frontend` and `backend` (e.g. XSUB and XPUB) on the
/// calling thread until the context is shut down or it is told to stop, and answers the commands sent to `control`
/// (a REP socket): `STATISTICS` gets eight 64-bit counters (messages and bytes in and out,
/// frontend then backend), `TERMINATE` stops it.
public func runSteerableProxy(frontend: ZMQSocket, backend: ZMQSocket, control: ZMQSocket) throws {
    while zmq_proxy_steerable(frontend.handle, backend.handle, nil, control.handle) != 0 {
        let error = ZMQError.last("zmq_proxy_steerable")
        if error.isTerminated { return }
        if !error.isInterrupted { throw error }
    }
}

/// The two of the eight counters a steerable proxy reports for `STATISTICS` that the bus uses.
/// The answer's frames, in order: messages and bytes read from the frontend, messages and bytes
/// written to it (subscriptions passed on to publishers), then the same four for the backend.
public struct ProxyStatistics: Sendable, Equatable {
    /// Messages the proxy read from its frontend (from publishers); the bus reports it as `messagesIn`.
    public var frontendMessagesIn: UInt64 = 0
    /// Messages the proxy wrote to its backend (to subscribers); the bus reports it as `messagesOut`.
    public var backendMessagesOut: UInt64 = 0

    /// Zeroes.
    public init() {}

    /// The statistics in a proxy's eight-frame answer, if it is one.
    public init?(frames: [[UInt8]]) {
        guard frames.count == 8, frames.allSatisfy({ $0.count == 8 }) else { return nil }
        func value(_ index: Int) -> UInt64 {
            frames[index].enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
        }
        frontendMessagesIn = value(0)
        backendMessagesOut = value(6)
    }
}
