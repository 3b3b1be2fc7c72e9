// Several product clients at once, each on its own thread with its own connection and device,
// making sequential round trips: how a client's round trip grows with the others' traffic.

import BusKit
import Glibc
import MonsterKit
import Synchronization
import ZeroMQ

enum ConcurrentClients {
    /// What a run measured: every client's latencies (seconds), the round trips lost, and the
    /// wall and CPU seconds (of the processes metered) from the moment all clients were warm.
    struct Run {
        var latencies: [Double]
        var lost: Int
        var seconds: Double
        var cpu: [String: Double]
    }

    /// `clients` clients of the bus of `config`, each making `roundTrips` round trips (after a
    /// warm-up of 50) on a device of its own, all started together, metering `processes`.
    static func run(clients: Int, roundTrips: Int, config: BusConfig, metering processes: [(name: String, pid: pid_t)]) throws -> Run {
        let ready = Atomic<Int>(0)
        let results = Mutex<[Result<([Double], Int), any Error>]>([])
        let meter = Mutex<(started: Double, cpu: CPUMeter)?>(nil)
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
                if ready.add(1, ordering: .sequentiallyConsistent).newValue == clients {
                    meter.withLock { $0 = (Timestamp.monotonic(), CPUMeter(processes)) }
                }
                while ready.load(ordering: .sequentiallyConsistent) < clients { usleep(1_000) }
                let connected = try prepared.get()
                var latencies: [Double] = []
                latencies.reserveCapacity(roundTrips)
                for _ in 0..<roundTrips { if let seconds = try connected.roundTrip(device: device) { latencies.append(seconds) } }
                return (latencies, connected.lost)
            }
            results.withLock { $0.append(outcome) }
        }
        let ended = Timestamp.monotonic()
        var run = Run(latencies: [], lost: 0, seconds: 0, cpu: [:])
        if let (started, cpu) = meter.withLock({ $0 }) { (run.seconds, run.cpu) = (ended - started, cpu.used()) }
        for result in results.withLock({ $0 }) {
            let (latencies, missing) = try result.get()
            run.latencies += latencies
            run.lost += missing
        }
        return run
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
