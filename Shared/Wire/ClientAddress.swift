import Domain
/// A client's own address on the bus (the `replyTo` of what it sends) and what it subscribes
/// to with it, so that it receives the answers to its own actions, not every client's.
extension Topic {
    /// A fresh client address: 16 random lowercase hex digits. One length for every client, so
    /// that no client's address is a prefix of another's (a subscription is a prefix).
    public static func newAddress() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: (0..<16).map { _ in digits[Int(generator.next() % 16)] }, as: UTF8.self)
    }

    /// What a client with `address` subscribes to, to hear everything its actions cause and
    /// nothing else it can avoid: each `.toClient` type on its address (every style of a
    /// presentation: `Topic.answerSubscriptions(to:address:)`); the `.broadcast` state
    /// an action can change or a request asks for (roster, status), bare; and the requests one
    /// service passes on to another (`input.tap`, …), bare, since its actions' acknowledgements
    /// list them. Other clients' actions, what one service instance sends another, requests, pings and heartbeats are left out.
    public static func clientSubscriptions(address: String) -> [String] {
        let otherRequests: Set<MessageType> = [.backupRequest, .ping, .heartbeat, .statusRequest, .lossReport]
        return MessageType.allCases.flatMap { type in
            switch type.addressing {
            case .toClient: answerSubscriptions(to: type, address: address)
            case .broadcast: otherRequests.contains(type) ? [] : [type.rawValue]
            case .byDevice: type.rawValue.hasPrefix("device.") ? [] : [type.rawValue]
            case .toInstance: [String]()
            }
        }
    }
}
