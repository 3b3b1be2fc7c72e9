import BusCore
import Glibc
import ProcessSupport
import ThreadOwnership
import ZeroMQ

/// Who sent a message, from its `User-Id` (the ZAP handler sets it to the client's public key
/// in Z85): its name and role on the current allow-list. Used on the proxy's thread only; the
/// last answer is remembered, since messages come in runs from one connection.
final class ClientIdentities {
    /// A client as the allow-list names it.
    struct Client: Equatable {
        /// Its certificate's name.
        let name: String
        /// What it may do.
        let sender: BusPolicy.Sender
    }

    private let allowList: Locked<AllowList>
    private let ownKey: CurveKey?
    // Read and written by the proxy's thread only, in every batch of messages.
    private let byUserId = ThreadOwned([String: Client]())
    private let lastUserId = ThreadOwned([CChar(0)])
    private let last = ThreadOwned(Client(name: "", sender: .anonymous))

    /// Identities from `allowList`; `ownKey` is the bus's (its clients are `bus`). Without CURVE
    /// (`ownKey` nil) every client is anonymous.
    init(allowList: Locked<AllowList>, ownKey: CurveKey?) {
        self.allowList = allowList
        self.ownKey = ownKey
        reload()
    }

    /// Re-reads the allow-list (after SIGHUP); returns the User-Ids no longer on it.
    @discardableResult
    func reload() -> Set<String> {
        let list = allowList.current
        var table: [String: Client] = [:]
        for (key, name) in list.names {
            table[key.z85] = Client(name: name, sender: .client(list.role(of: key) ?? .gateway))
        }
        if let ownKey { table[ownKey.z85] = Client(name: "bus", sender: .client(.bus)) }
        let removed = Set(byUserId.value.keys).subtracting(table.keys)
        byUserId.value = table
        lastUserId.value = [0]
        return removed
    }

    /// Whether clients have keys (CURVE): without, every one is anonymous and no connection has
    /// a `User-Id`.
    var hasKeys: Bool { ownKey != nil }

    /// The sender of a message whose `User-Id` is `userId` (nil: none). In CURVE mode only the
    /// bus's own in-process client has none (inproc skips the handshake).
    @inline(__always)
    func client(userId: UnsafePointer<CChar>?) -> Client {
        guard ownKey != nil else { return Client(name: "", sender: .anonymous) }
        guard let userId else { return Client(name: "bus", sender: .client(.bus)) }
        if strcmp(userId, lastUserId.value) == 0 { return last.value }
        return look(userId)
    }

    /// The sender of a `User-Id` other than the last one, remembered as the last.
    private func look(_ userId: UnsafePointer<CChar>) -> Client {
        let text = String(cString: userId)
        last.value = byUserId.value[text] ?? Client(name: "revoked key \(text)", sender: .revoked)
        lastUserId.value = Array(text.utf8CString)
        return last.value
    }
}
