import Synchronization

/// The proxy loop's counters: counted on its thread, each an atomic add (relaxed: no lock, no
/// copy after each batch), and read by the registry's thread for the bus's heartbeat.
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

    /// The counts, in plain memory (an array in a class would be checked for exclusive access and
    /// uniqueness at each count).
    private let values = UnsafeMutablePointer<Atomic<UInt64>>.allocate(capacity: Name.allCases.count)

    /// All zero.
    init() {
        for index in Name.allCases.indices { (values + index).initialize(to: Atomic(0)) }
    }

    deinit {
        values.deinitialize(count: Name.allCases.count)
        values.deallocate()
    }

    /// Adds `amount` to `name` (on the proxy's thread).
    @inline(__always)
    func add(_ name: Name, _ amount: UInt64 = 1) {
        values[Self.index(name)].wrappingAdd(amount, ordering: .relaxed)
    }

    /// Every counter by name, as counted so far (on any thread).
    var snapshot: [String: UInt64] {
        Dictionary(uniqueKeysWithValues: Name.allCases.map { ($0.rawValue, values[Self.index($0)].load(ordering: .relaxed)) })
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
