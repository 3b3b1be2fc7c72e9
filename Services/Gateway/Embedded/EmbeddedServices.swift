import Domain
import Foundation
import InputService
import PresentationService
import ProcessSupport
import RosterService
import RosterStore
import Runtime
import Wire

/// The real services — presentation-policy, input-handling and the roster (on SQLite in a
/// temporary folder) — each on its own thread in this process, over an `InMemoryBus`, with a
/// stand-in for the bus that answers pings: `gateway --embedded`, and the tests that run the
/// scenarios in memory. No bus process, no sockets; the handlers and the runtime are the ones
/// the processes run.
public final class EmbeddedServices: @unchecked Sendable {
    /// The bus the services are on; connect a client with `connect`.
    public let bus: InMemoryBus
    private var threads: [OSThread] = []
    private let folder: String

    /// Starts the services with `config` (its limits and times), logging at `logLevel` (warnings
    /// by default: a command's output stays its own).
    public init(config: BusConfig, logLevel: LogLevel = .warn) throws {
        var config = config
        config.logLevel = logLevel
        bus = InMemoryBus(maxMessageBytes: config.maxMessageBytes)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("monster-bus-embedded-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let expiry = try DeviceIdleExpiry.fromEnvironment()
        let log = Log(service: MonsterBus.Service.roster, level: logLevel, format: config.logFormat)
        let roster = try RosterHandler.open(path: folder + "/roster.db", mode: .normal, expiry: expiry, log: log)
        start(MonsterBus.Service.roster, roster, config)
        start(MonsterBus.Service.presentationPolicy, PresentationHandler(activity: DeviceActivity(limit: expiry)), config)
        start(MonsterBus.Service.inputHandling, InputHandler(activity: DeviceActivity(limit: expiry)), config)
        start(MonsterBus.Service.bus, PingsOnly(), config)
    }

    /// A client's connection to the services' bus, subscribed to everything.
    public func connect(service: String = MonsterBus.Service.gateway) -> InMemoryConnection {
        bus.connect(service: service, subscriptions: [""])
    }

    /// Stops every service (each handles what had reached it first) and removes the temporary folder.
    public func stop() {
        bus.stopAll()
        for thread in threads { thread.join() }
        threads = []
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func start<Handler: ServiceHandler>(_ name: String, _ handler: Handler, _ config: BusConfig) {
        let runtime = ServiceRuntime(name: name, handler: handler, config: config)
        let connection = bus.connect(service: name, subscriptions: runtime.subscriptions)
        let run: () -> Void = {
            do {
                try runtime.run(on: connection)
            } catch {
                Log.standardError("\(name): \(error)\n")
            }
            connection.close()
        }
        let box = UncheckedBox(run)
        threads.append(OSThread { box.value() })
    }
}

/// The bus's part in memory: it answers pings (as `bus`) and heartbeats; it handles nothing else.
struct PingsOnly: ServiceHandler {
    let handledTypes: [MessageType] = []
    mutating func handle(_ envelope: Envelope) -> Reply { Reply([]) }
}

/// Hands a value owned by one thread to the thread that will own it from then on.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
