import BusKit

/// The proxy loop's counters: counted on its thread without a lock, and copied after each batch
/// of messages into a locked snapshot that the registry's thread reads for the bus's heartbeat.
final class ProxyCounters: @unchecked Sendable {
    /// A counter and its name in the heartbeat.
    enum Name: String, CaseIterable {
        /// Messages read from publishers (the frontend).
        case messagesIn
        /// Messages forwarded to subscribers (the backend).
        case messagesOut
        /// Messages refused: a topic the sender's role may not publish.
        case refusedTopic
        /// Messages refused: a `service` that is not the sender's.
        case refusedService
        /// Messages refused: sent with a revoked key.
        case refusedRevoked
        /// Messages refused: more frames than the protocol's.
        case refusedFrames
        /// Refusals that could not be handed to the registry to answer (its queue was full).
        case refusalsUnanswered
        /// Subscriptions accepted.
        case subscriptionsAccepted
        /// Subscriptions refused: too long, outside the vocabulary, or not the role's.
        case subscriptionsRefused
        /// Messages other than subscriptions sent up by subscribers, dropped.
        case upstreamDropped
        /// Connections cut because their key was revoked.
        case revokedDisconnects
    }

    /// The proxy thread's counts (only that thread touches them): plain memory, so that a count
    /// costs an add (an array in a class would be checked for exclusive access and uniqueness).
    private let values = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: Name.allCases.count)
    private let shared = Locked([UInt64](repeating: 0, count: Name.allCases.count))

    /// All zero.
    init() { values.initialize(repeating: 0) }

    deinit { values.deallocate() }

    /// Adds `amount` to `name` (on the proxy's thread).
    @inline(__always)
    func add(_ name: Name, _ amount: UInt64 = 1) {
        values[Self.index(name)] &+= amount
    }

    /// Makes the counts so far visible to `snapshot` (on the proxy's thread), copied into the
    /// shared array in place (no allocation per batch).
    func publish() {
        let values = self.values
        shared.withLock { shared in
            for index in shared.indices { shared[index] = values[index] }
        }
    }

    /// Every counter by name, as last published (on any thread).
    var snapshot: [String: UInt64] {
        let values = shared.current
        return Dictionary(uniqueKeysWithValues: Name.allCases.map { ($0.rawValue, values[Self.index($0)]) })
    }

    @inline(__always)
    private static func index(_ name: Name) -> Int {
        switch name {
        case .messagesIn: 0
        case .messagesOut: 1
        case .refusedTopic: 2
        case .refusedService: 3
        case .refusedRevoked: 4
        case .refusedFrames: 5
        case .refusalsUnanswered: 6
        case .subscriptionsAccepted: 7
        case .subscriptionsRefused: 8
        case .upstreamDropped: 9
        case .revokedDisconnects: 10
        }
    }
}
