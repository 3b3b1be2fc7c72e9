/// ZeroMQ's authentication protocol (ZAP 1.0, RFC 27): libzmq asks a handler bound at
/// `endpoint` in the same context whether to admit each peer that completed a handshake.
public enum ZAP {
    /// Where libzmq sends its requests.
    public static let endpoint = "inproc://zeromq.zap.01"

    /// Binds a REP socket at `endpoint` in `context` on the calling thread (which then owns it),
    /// calls `ready` once bound, and answers every request with `decide`'s reply until the
    /// context is shut down. A malformed request is answered with status 500.
    public static func serve(
        context: ZMQContext, ready: () -> Void, decide: (ZAPRequest) -> ZAPReply
    ) throws {
        let socket = try ZMQSocket(context, .rep)
        defer { socket.close() }
        try socket.bind(endpoint)
        ready()
        while true {
            let frames: [[UInt8]]
            do {
                guard let received = try socket.receive() else { continue }
                frames = received
            } catch let error as ZMQError where error.isTerminated {
                return
            }
            let reply: ZAPReply
            if let request = ZAPRequest(frames: frames) {
                reply = decide(request)
            } else {
                reply = ZAPReply(requestId: frames.count > 1 ? frames[1] : [], status: .internalError, text: "malformed ZAP request")
            }
            do {
                try socket.send(reply.frames)
            } catch let error as ZMQError where error.isTerminated {
                return
            }
        }
    }
}

/// One ZAP request: who is connecting, to what, and with which credentials.
public struct ZAPRequest: Sendable, Equatable {
    /// The request's id, echoed in the reply.
    public let requestId: [UInt8]
    /// The server socket's `ZMQ_ZAP_DOMAIN`.
    public let domain: String
    /// The peer's address (its IP for TCP; empty for IPC).
    public let address: String
    /// The peer's routing id, if it set one.
    public let routingId: [UInt8]
    /// The security mechanism: `NULL`, `PLAIN` or `CURVE`.
    public let mechanism: String
    /// The mechanism's credentials: for CURVE, the client's 32-byte public key.
    public let credentials: [[UInt8]]

    /// The request in `frames` (version `1.0`, request id, domain, address, routing id,
    /// mechanism, credentials…); `nil` if they are not one.
    public init?(frames: [[UInt8]]) {
        guard frames.count >= 6, frames[0] == Array("1.0".utf8) else { return nil }
        requestId = frames[1]
        domain = String(decoding: frames[2], as: UTF8.self)
        address = String(decoding: frames[3], as: UTF8.self)
        routingId = frames[4]
        mechanism = String(decoding: frames[5], as: UTF8.self)
        credentials = Array(frames.dropFirst(6))
    }

    /// The CURVE client's public key, for a CURVE request.
    public var curveKey: CurveKey? {
        guard mechanism == "CURVE", credentials.count == 1 else { return nil }
        return CurveKey(bytes: credentials[0])
    }
}

/// The answer to a ZAP request.
public struct ZAPReply: Sendable, Equatable {
    /// ZAP status codes.
    public enum Status: String, Sendable {
        /// Admitted.
        case ok = "200"
        /// Try again later.
        case temporaryError = "300"
        /// Refused.
        case denied = "400"
        /// The handler could not decide.
        case internalError = "500"
    }

    /// The id of the request answered, echoed so that libzmq matches the reply to it.
    public let requestId: [UInt8]
    /// Admitted or not.
    public let status: Status
    /// Why, for people.
    public let text: String
    /// The user id libzmq attaches to the peer's messages (`User-Id` property).
    public let userId: String

    /// A reply to the request `requestId`.
    public init(requestId: [UInt8], status: Status, text: String, userId: String = "") {
        self.requestId = requestId; self.status = status; self.text = text; self.userId = userId
    }

    /// The reply's frames: version, request id, status code, status text, user id, metadata.
    public var frames: [[UInt8]] {
        [Array("1.0".utf8), requestId, Array(status.rawValue.utf8), Array(text.utf8), Array(userId.utf8), []]
    }
}
