import BusKit
import ZeroMQ

/// The bus's ZAP decisions: admits CURVE clients whose public key is on the allow-list (or
/// is the bus's own), with the key (Z85) as the connection's `User-Id`, by which the proxy
/// knows each message's sender and its role; refuses everyone else, and logs each key's
/// first admission and first refusal (repeats, as clients reconnect, only at debug level).
/// Used on the ZAP handler's thread only.
final class ZAPAuthenticator {
    private let allowList: Locked<AllowList>
    private let ownKey: CurveKey
    private let authorizedDirectory: String
    private let log: Log
    private var admitted: Set<CurveKey> = []
    private var refused: Set<CurveKey> = []

    /// Decides with the current `allowList`; `ownKey` is the bus's public key.
    init(allowList: Locked<AllowList>, ownKey: CurveKey, authorizedDirectory: String, log: Log) {
        self.allowList = allowList; self.ownKey = ownKey
        self.authorizedDirectory = authorizedDirectory; self.log = log
    }

    /// The reply to `request`.
    func decide(_ request: ZAPRequest) -> ZAPReply {
        let from = request.address.isEmpty ? "" : " from \(request.address)"
        guard let key = request.curveKey else {
            log.warn("refused a \(request.mechanism) client\(from): only CURVE clients are admitted")
            return ZAPReply(requestId: request.requestId, status: .denied, text: "CURVE required")
        }
        let list = allowList.current
        let name = key == ownKey ? "bus" : list.name(of: key)
        if let name {
            let role = key == ownKey ? Role.bus : list.role(of: key) ?? .gateway
            log.write(Self.remember(key, in: &admitted) ? .info : .debug, "admitted \(name), role \(role.rawValue) (key \(key.z85))\(from)")
            return ZAPReply(requestId: request.requestId, status: .ok, text: "OK", userId: key.z85)
        }
        log.write(Self.remember(key, in: &refused) ? .warn : .debug,
                  "refused a client\(from): its public key \(key.z85) is not in \(authorizedDirectory) (copy its .key file there and send the bus SIGHUP)")
        return ZAPReply(requestId: request.requestId, status: .denied, text: "key not authorised")
    }

    /// Notes `key` in `seen`; true the first time (up to a bound, so a flood of fresh keys
    /// cannot grow it).
    private static func remember(_ key: CurveKey, in seen: inout Set<CurveKey>) -> Bool {
        guard !seen.contains(key) else { return false }
        if seen.count < 10_000 { seen.insert(key) }
        return true
    }
}
