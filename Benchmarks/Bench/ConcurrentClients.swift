// Several product clients at once, each on its own thread with its own connection and device,
// making sequential round trips: how a client's round trip grows with the others' traffic.

import BusKit
import Glibc
import MonsterKit
import Synchronization
import ZeroMQ

enum ConcurrentClients {
    /// `clients` clients of the bus of `config`, each making `roundTrips` round trips (after a
    /// warm-up of 50) on a device of its own, all started together; every client's latencies
    /// (seconds), and the round trips lost.
    static func run(clients: Int, roundTrips: Int, config: BusConfig) throws -> (latencies: [Double], lost: Int) {
        let ready = Atomic<Int>(0)
        let results = Mutex<[Result<([Double], Int), any Error>]>([])
        let policy = MonsterBus.Service.presentationPolicy
        try onThreads(clients) { index in
            let outcome = Result { () throws -> ([Double], Int) in
                // Start together: every client connected and warm (or failed).
                let context = try ZMQContext()
                var client: ProductClient?
                let device = "bench-client-\(clients)-\(index)"
                let prepared = Result { () throws -> ProductClient in
                    let made = try ProductClient(context: context, config: config)
                    client = made
                    try made.handshake(services: [policy], timeout: 20)
                    for _ in 0..<50 { _ = try made.roundTrip(device: device) }
                    return made
                }
                defer { client?.close() }
                ready.add(1, ordering: .sequentiallyConsistent)
                while ready.load(ordering: .sequentiallyConsistent) < clients { usleep(1_000) }
                let connected = try prepared.get()
                var latencies: [Double] = []
                latencies.reserveCapacity(roundTrips)
                for _ in 0..<roundTrips { if let seconds = try connected.roundTrip(device: device) { latencies.append(seconds) } }
                return (latencies, connected.lost)
            }
            results.withLock { $0.append(outcome) }
        }
        var all: [Double] = [], lost = 0
        for result in results.withLock({ $0 }) {
            let (latencies, missing) = try result.get()
            all += latencies
            lost += missing
        }
        return (all, lost)
    }
}

/// A job handed to a new thread.
private final class ThreadJob: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// Runs `body(index)` for each index on `count` threads of their own at once; returns when all have ended.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) throws {
    var threads: [pthread_t] = []
    for index in 0..<count {
        let job = Unmanaged.passRetained(ThreadJob { body(index) })
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<ThreadJob>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, job.toOpaque())
        guard result == 0 else {
            job.release()
            throw BenchError("cannot start a thread: \(String(cString: strerror(result)))")
        }
        threads.append(thread)
    }
    for thread in threads { pthread_join(thread, nil) }
}
