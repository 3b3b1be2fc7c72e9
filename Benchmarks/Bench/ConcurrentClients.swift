// Several clients at once, each on its own thread with its own connection (and device, or
// address), making sequential round trips: how a client's round trip grows with the others'
// traffic, for the product's clients and for raw clients of the echo (answering with one message,
// or in the product's shape).

import Domain
import Glibc
import ProcessSupport
import Synchronization
import Wire
import ZeroMQ

enum ConcurrentClients {
    /// What a run measured: every client's latencies (seconds), the round trips lost, and the
    /// wall and CPU seconds (of the processes metered) from the moment all clients were warm.
    struct Run {
        var latencies: [Double]
        var lost: Int
        var seconds: Double
        var cpu: [String: Double]

        /// Nothing measured yet.
        init(latencies: [Double] = [], lost: Int = 0, seconds: Double = 0, cpu: [String: Double] = [:]) {
            (self.latencies, self.lost, self.seconds, self.cpu) = (latencies, lost, seconds, cpu)
        }

        /// Adds `other`'s round trips, losses, seconds and CPU to these (rounds of one kind of run).
        mutating func add(_ other: Run) {
            latencies += other.latencies
            lost += other.lost
            seconds += other.seconds
            cpu.merge(other.cpu, uniquingKeysWith: +)
        }
    }

    /// `clients` product clients of the bus of `config`, each making `roundTrips` round trips
    /// (after a warm-up of 50) on a device of its own, all started together, metering `processes`.
    static func run(clients: Int, roundTrips: Int, config: BusConfig, metering processes: [(name: String, pid: pid_t)]) throws -> Run {
        let policy = MonsterBus.Service.presentationPolicy
        return try measure(clients: clients, roundTrips: roundTrips, metering: processes) { index, context in
            let client = try ProductClient(context: context, config: config)
            let device = "bench-client-\(clients)-\(index)"
            return (
                prepare: { try client.handshake(services: [policy], timeout: 20) },
                roundTrip: { try client.roundTrip(device: device) },
                lost: { client.lost },
                close: client.close)
        }
    }

    /// The same with raw clients of the echo, each on an address of its own: answered with one
    /// message as large as the request, or in `shape` and timed until the first answer, as the
    /// product's round trip is timed until its decision (the echo's work per round trip stays
    /// the same whatever the number of clients).
    static func runRaw(
        clients: Int, roundTrips: Int, config: BusConfig, payload: [UInt8], shape: RawClient.Shape?,
        metering processes: [(name: String, pid: pid_t)]
    ) throws -> Run {
        try measure(clients: clients, roundTrips: roundTrips, metering: processes) { index, context in
            let client = try RawClient(context: context, config: config, payload: payload, address: UInt64(index + 1))
            return (
                prepare: { try client.handshake(timeout: 20) },
                roundTrip: { try client.roundTrip(shape: shape, firstAnswer: shape != nil) },
                lost: { client.lost },
                close: client.close)
        }
    }

    /// What `measure` needs of a client, made on its own thread: connect and wait for the
    /// service, one timed round trip, the round trips lost, and closing.
    typealias Client = (prepare: () throws -> Void, roundTrip: () throws -> Double?, lost: () -> Int, close: () -> Void)

    /// Runs `clients` clients made by `make(index, context)`, each on a thread of its own; they
    /// start measuring together, once every one is prepared and warm (or has failed).
    private static func measure(
        clients: Int, roundTrips: Int, metering processes: [(name: String, pid: pid_t)],
        make: @escaping @Sendable (Int, ZMQContext) throws -> Client
    ) throws -> Run {
        let ready = Atomic<Int>(0)
        let results = Mutex<[Result<([Double], Int), any Error>]>([])
        let meter = Mutex<(started: Double, cpu: CPUMeter)?>(nil)
        try onThreads(clients) { index in
            let outcome = Result { () throws -> ([Double], Int) in
                let context = try ZMQContext()
                var client: Client?
                let prepared = Result { () throws -> Client in
                    let made = try make(index, context)
                    client = made
                    try made.prepare()
                    for _ in 0..<50 { _ = try made.roundTrip() }
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
                for _ in 0..<roundTrips { if let seconds = try connected.roundTrip() { latencies.append(seconds) } }
                return (latencies, connected.lost())
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
