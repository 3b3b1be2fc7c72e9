import Domain

/// A condition of an etcd transaction on one key's revisions.
public enum EtcdCondition: Sendable, Equatable {
    /// The key was created at this revision (0: the key does not exist).
    case created(String, at: Int64)
    /// The key was last changed at this revision (0: the key does not exist).
    case modified(String, at: Int64)
}

/// One write of an etcd transaction.
public enum EtcdOperation: Sendable, Equatable {
    /// Puts the value at the key, attached to the lease if one is given.
    case put(String, [UInt8], lease: Int64?)
    /// Deletes the key (nothing if it does not exist).
    case delete(String)
}

extension EtcdClient {
    /// Does every one of `operations` at once if every one of `conditions` holds, and nothing
    /// otherwise; returns the revision of the writes, or nil when a condition failed.
    ///
    /// Sent again to another member after an attempt whose answer was lost, the transaction is
    /// the same: the caller makes its conditions such that a retry of an applied attempt is
    /// refused (a key the writes create must not exist), and reads back what it needs to tell
    /// its own earlier attempt from a refusal.
    public func transaction(_ conditions: [EtcdCondition], _ operations: [EtcdOperation]) throws(EtcdError) -> Int64? {
        typealias M = EtcdMessages
        let compare = conditions.map { condition in
            switch condition {
            case .created(let key, let revision):
                M.Compare(key: Base64.encode(key.utf8), target: "CREATE", createRevision: M.Int64Text(revision))
            case .modified(let key, let revision):
                M.Compare(key: Base64.encode(key.utf8), target: "MOD", modRevision: M.Int64Text(revision))
            }
        }
        let success = operations.map { operation in
            switch operation {
            case .put(let key, let value, let lease):
                M.Operation(put: M.Put(key: Base64.encode(key.utf8), value: Base64.encode(value), lease: lease.map(M.Int64Text.init)))
            case .delete(let key):
                M.Operation(deleteRange: M.Key(key: Base64.encode(key.utf8)))
            }
        }
        let answer = try call("/v3/kv/txn", M.Transaction(compare: compare, success: success), as: M.TransactionAnswer.self)
        guard answer.succeeded ?? false else { return nil }
        return answer.header?.revision?.value
    }
}
