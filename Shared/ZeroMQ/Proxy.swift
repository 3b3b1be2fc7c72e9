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

/// The counters a steerable proxy reports for `STATISTICS`.
public struct ProxyStatistics: Sendable, Equatable {
    /// Messages the proxy read from its frontend (from publishers); the bus reports it as `messagesIn`.
    public var frontendMessagesIn: UInt64 = 0
    /// Bytes the proxy read from its frontend (from publishers).
    public var frontendBytesIn: UInt64 = 0
    /// Messages the proxy wrote to its frontend (subscriptions passed on to publishers).
    public var frontendMessagesOut: UInt64 = 0
    /// Bytes the proxy wrote to its frontend (subscriptions passed on to publishers).
    public var frontendBytesOut: UInt64 = 0
    /// Messages the proxy read from its backend (subscriptions and unsubscriptions from subscribers).
    public var backendMessagesIn: UInt64 = 0
    /// Bytes the proxy read from its backend (subscriptions from subscribers).
    public var backendBytesIn: UInt64 = 0
    /// Messages the proxy wrote to its backend (to subscribers); the bus reports it as `messagesOut`.
    public var backendMessagesOut: UInt64 = 0
    /// Bytes the proxy wrote to its backend (to subscribers).
    public var backendBytesOut: UInt64 = 0

    /// Zeroes.
    public init() {}

    /// The statistics in a proxy's eight-frame answer, if it is one.
    public init?(frames: [[UInt8]]) {
        guard frames.count == 8, frames.allSatisfy({ $0.count == 8 }) else { return nil }
        let values = frames.map { frame in frame.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) } }
        (frontendMessagesIn, frontendBytesIn, frontendMessagesOut, frontendBytesOut) = (values[0], values[1], values[2], values[3])
        (backendMessagesIn, backendBytesIn, backendMessagesOut, backendBytesOut) = (values[4], values[5], values[6], values[7])
    }
}
