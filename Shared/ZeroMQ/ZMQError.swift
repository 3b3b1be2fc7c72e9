import CZeroMQ

/// An error from libzmq: the `errno` it reported and libzmq's text for it.
public struct ZMQError: Error, Equatable, CustomStringConvertible {
    /// The C `errno` value (libzmq's own codes such as `ETERM` included).
    public let code: Int32
    /// What libzmq says the code means (`zmq_strerror`).
    public let text: String
    /// What was being attempted, e.g. `bind tcp://127.0.0.1:5555`.
    public let operation: String

    /// Captures the current `zmq_errno()` for `operation`.
    public static func last(_ operation: String) -> ZMQError {
        let code = zmq_errno()
        return ZMQError(code: code, text: String(cString: zmq_strerror(code)), operation: operation)
    }

    /// True when the context was terminated or shut down (`ETERM`): time to close and leave.
    public var isTerminated: Bool { code == ETERM }

    /// True when the call would have blocked (`EAGAIN`): a full queue or an empty one.
    public var wouldBlock: Bool { code == EAGAIN }

    /// True when a signal interrupted the call (`EINTR`): retry it.
    public var isInterrupted: Bool { code == EINTR }

    /// The error for a person and the logs: what was attempted, libzmq's text and the errno.
    public var description: String { "\(operation): \(text) (errno \(code))" }
}
