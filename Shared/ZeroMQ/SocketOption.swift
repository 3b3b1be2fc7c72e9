import CZeroMQ

/// The libzmq socket options this project sets or reads.
public enum SocketOption: Sendable, CustomStringConvertible {
    case linger, sendHighWaterMark, receiveHighWaterMark, subscribe, unsubscribe
    case maxMessageSize, lastEndpoint, xpubNoDrop, events, immediate
    case curveServer, curvePublicKey, curveSecretKey, curveServerKey, zapDomain
    case heartbeatInterval, heartbeatTimeout, reconnectInterval
    case xpubManual

    /// The libzmq constant.
    var raw: Int32 {
        switch self {
        case .linger: ZMQ_LINGER
        case .sendHighWaterMark: ZMQ_SNDHWM
        case .receiveHighWaterMark: ZMQ_RCVHWM
        case .subscribe: ZMQ_SUBSCRIBE
        case .unsubscribe: ZMQ_UNSUBSCRIBE
        case .maxMessageSize: ZMQ_MAXMSGSIZE
        case .lastEndpoint: ZMQ_LAST_ENDPOINT
        case .xpubNoDrop: ZMQ_XPUB_NODROP
        case .events: ZMQ_EVENTS
        case .immediate: ZMQ_IMMEDIATE
        case .curveServer: ZMQ_CURVE_SERVER
        case .curvePublicKey: ZMQ_CURVE_PUBLICKEY
        case .curveSecretKey: ZMQ_CURVE_SECRETKEY
        case .curveServerKey: ZMQ_CURVE_SERVERKEY
        case .zapDomain: ZMQ_ZAP_DOMAIN
        case .heartbeatInterval: ZMQ_HEARTBEAT_IVL
        case .heartbeatTimeout: ZMQ_HEARTBEAT_TIMEOUT
        case .reconnectInterval: ZMQ_RECONNECT_IVL
        case .xpubManual: ZMQ_XPUB_MANUAL
        }
    }

    /// The option's libzmq name (`ZMQ_SNDHWM`, …), as errors about it show it.
    public var description: String {
        switch self {
        case .linger: "ZMQ_LINGER"
        case .sendHighWaterMark: "ZMQ_SNDHWM"
        case .receiveHighWaterMark: "ZMQ_RCVHWM"
        case .subscribe: "ZMQ_SUBSCRIBE"
        case .unsubscribe: "ZMQ_UNSUBSCRIBE"
        case .maxMessageSize: "ZMQ_MAXMSGSIZE"
        case .lastEndpoint: "ZMQ_LAST_ENDPOINT"
        case .xpubNoDrop: "ZMQ_XPUB_NODROP"
        case .events: "ZMQ_EVENTS"
        case .immediate: "ZMQ_IMMEDIATE"
        case .curveServer: "ZMQ_CURVE_SERVER"
        case .curvePublicKey: "ZMQ_CURVE_PUBLICKEY"
        case .curveSecretKey: "ZMQ_CURVE_SECRETKEY"
        case .curveServerKey: "ZMQ_CURVE_SERVERKEY"
        case .zapDomain: "ZMQ_ZAP_DOMAIN"
        case .heartbeatInterval: "ZMQ_HEARTBEAT_IVL"
        case .heartbeatTimeout: "ZMQ_HEARTBEAT_TIMEOUT"
        case .reconnectInterval: "ZMQ_RECONNECT_IVL"
        case .xpubManual: "ZMQ_XPUB_MANUAL"
        }
    }
}
