import ProcessSupport
import Wire
import ZeroMQ

/// The bus's ZAP decisions: admits CURVE clients whose public key is on the allow-list (or
/// is the bus's own), with the key (Z85) as the connection's `User-Id`, by which the proxy
/// knows each message's sender and its role; refuses everyone else. It logs each key's first
/// admission; refusals are rate-limited: the first as a warning, then at most one line per
/// `refusalLogInterval` counting the refusals and new unknown keys since (every refusal at
/// debug level). Used on the ZAP handler's thread only.
final class ZAPAuthenticator {
    private let allowList: Locked<AllowList>
    private let ownKey: CurveKey
    private let authorizedDirectory: String
    private let log: Log
    private var admitted: Set<CurveKey> = []
    private var refused: Set<CurveKey> = []
    /// Seconds between two refusal lines at `warn`.
    static let refusalLogInterval = 10.0
    private var refusalThrottle = LogThrottle(interval: refusalLogInterval)
    /// Unknown keys first seen since the last refusal line written.
    private var newKeysHeldBack = 0

    /// Decides with the current `allowList`; `ownKey` is the bus's public key.
    init(allowList: Locked<AllowList>, ownKey: CurveKey, authorizedDirectory: String, log: Log) {
        self.allowList = allowList; self.ownKey = ownKey
        self.authorizedDirectory = authorizedDirectory; self.log = log
    }

    /// The reply to `request`.
    func decide(_ request: ZAPRequest) -> ZAPReply {
        let from = request.address.isEmpty ? "" : " from \(request.address)"
        guard let key = request.curveKey else {
            logRefusal("refused a \(request.mechanism) client\(from): only CURVE clients are admitted", newKey: false)
            return ZAPReply(requestId: request.requestId, status: .denied, text: "CURVE required")
        }
        let list = allowList.current
        let name = key == ownKey ? "bus" : list.name(of: key)
        if let name {
            let role = key == ownKey ? Role.bus : list.role(of: key) ?? .gateway
            log.write(Self.remember(key, in: &admitted) ? .info : .debug, "admitted \(name), role \(role.rawValue) (key \(key.z85))\(from)")
            return ZAPReply(requestId: request.requestId, status: .ok, text: "OK", userId: key.z85)
        }
        logRefusal(
            "refused a client\(from): its public key \(key.z85) is not in \(authorizedDirectory) (copy its .key file there and send the bus SIGHUP)",
            newKey: Self.remember(key, in: &refused))
        return ZAPReply(requestId: request.requestId, status: .denied, text: "key not authorised")
    }

    /// Logs a refusal at warn level if it is the first, or the first after an interval (counting
    /// what was held back since), else at debug level.
    private func logRefusal(_ line: String, newKey: Bool) {
        switch refusalThrottle.note(now: Timestamp.monotonic()) {
        case .hold:
            log.debug(line)
            if newKey { newKeysHeldBack += 1 }
        case .write(let heldBack):
            let summary = heldBack == 0
                ? "further refusals are summarised every \(Int(Self.refusalLogInterval)) s"
                : "and \(heldBack) more refusal(s) since the last such line, \(newKeysHeldBack) of them of new unknown keys"
            log.warn("\(line); \(summary)")
            newKeysHeldBack = 0
        }
    }

    /// Notes `key` in `seen`; true the first time (up to a bound, so a flood of fresh keys
    /// cannot grow it).
    private static func remember(_ key: CurveKey, in seen: inout Set<CurveKey>) -> Bool {
        guard !seen.contains(key) else { return false }
        if seen.count < 10_000 { seen.insert(key) }
        return true
    }
}
