import CZeroMQ

/// A libzmq socket event, as a monitor socket reports it (`zmq_socket_monitor`).
public struct MonitorEvent: Sendable, Equatable {
    /// Which events to watch, as libzmq's bit mask.
    public struct Kinds: OptionSet, Sendable {
        /// libzmq's `ZMQ_EVENT_*` bits, as `zmq_socket_monitor` takes them.
        public let rawValue: Int32
        /// A mask from its raw value.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// A peer's connection accepted by a bound socket (the bus counts `publishersConnected`).
        public static let accepted = Kinds(rawValue: ZMQ_EVENT_ACCEPTED)
        /// A connection closed: a peer left or was dropped (the bus counts `publishersDisconnected`).
        public static let disconnected = Kinds(rawValue: ZMQ_EVENT_DISCONNECTED)
        /// A connection's handshake failed: any of libzmq's three `HANDSHAKE_FAILED` events, ZAP refusals included.
        public static let handshakeFailed = Kinds(rawValue: ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL
            | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_AUTH)
    }

    /// The event (one bit of `Kinds`).
    public let kind: Int32
    /// Its value (a file descriptor, an error code, …).
    public let value: UInt32
    /// The endpoint it happened on.
    public let endpoint: String

    /// The event in a monitor socket's two frames, if they are one.
    public init?(frames: [[UInt8]]) {
        guard frames.count == 2, frames[0].count == 6 else { return nil }
        kind = Int32(UInt16(frames[0][0]) | UInt16(frames[0][1]) << 8)
        value = UInt32(frames[0][2]) | UInt32(frames[0][3]) << 8 | UInt32(frames[0][4]) << 16 | UInt32(frames[0][5]) << 24
        endpoint = String(decoding: frames[1], as: UTF8.self)
    }

    /// Whether this is a `kinds` event.
    public func `is`(_ kinds: Kinds) -> Bool { kinds.rawValue & kind != 0 }
}

extension ZMQSocket {
    /// Publishes this socket's `kinds` events on a PAIR socket bound at `endpoint` (inproc).
    public func monitor(_ endpoint: String, kinds: MonitorEvent.Kinds) throws {
        guard zmq_socket_monitor(handle, endpoint, kinds.rawValue) == 0 else {
            throw ZMQError.last("zmq_socket_monitor \(endpoint)")
        }
    }
}
