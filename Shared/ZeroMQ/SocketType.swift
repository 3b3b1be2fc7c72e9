import CZeroMQ

/// The libzmq socket types this project uses.
public enum SocketType: Sendable {
    case pub, sub, xpub, xsub, pair, req, rep, router, dealer, push, pull

    /// The libzmq constant.
    var raw: Int32 {
        switch self {
        case .pub: ZMQ_PUB
        case .sub: ZMQ_SUB
        case .xpub: ZMQ_XPUB
        case .xsub: ZMQ_XSUB
        case .pair: ZMQ_PAIR
        case .req: ZMQ_REQ
        case .rep: ZMQ_REP
        case .router: ZMQ_ROUTER
        case .dealer: ZMQ_DEALER
        case .push: ZMQ_PUSH
        case .pull: ZMQ_PULL
        }
    }
}
