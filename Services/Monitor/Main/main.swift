import Domain
import Foundation
import MonitorKit
import ProcessSupport
import ZeroMQ

// monitor: subscribes to the bus as a read-only observer and serves a live web page of every
// device's screen, the actions and what they caused, the services' health, and /metrics.

if case .exit(let status) = ProgramStart.begin(name: "monitor", help: {
    ProgramHelp(
        usage: "monitor",
        summary: """
            Serves a live web page of Monster Bus: every device's screen (as gateway screen draws it),
            a timeline of actions with what each caused and how long each hop took, the services'
            health and counters, and /metrics for Prometheus.
            """,
        options: [.help, .version], environment: EnvironmentVariable.monitor
    )
}) {
    exit(status)
}

let environment = ProcessInfo.processInfo.environment
let config: BusConfig
let address: MonitorAddress
let healthAddress: MonitorAddress
var limits: MonitorLimits
do {
    config = try BusConfig.fromEnvironment(environment, component: MonitorModel.name)
    address = try MonitorAddress(parsing: environment["MONITOR_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 } ?? MonitorAddress.defaultText)
    healthAddress = try address.healthAddress(environment["MONITOR_HEALTH_ADDRESS"])
    limits = try MonitorLimits(environment: environment)
} catch {
    Log.standardError("monitor: \(error)\n")
    exit(2)
}
let log = Log(service: MonitorModel.name, level: config.logLevel)
log.info(config.securitySummary)
// Every connection is a descriptor: the soft limit (often 1,024) up to the hard one.
let descriptors = OpenFileLimit.raiseToHard()
if let fitted = limits.fitting(descriptors: descriptors) {
    log.warn("only \(descriptors) open files allowed (ulimit -n): at most \(fitted.maxConnections) connections, \(fitted.maxStreams) streams")
    limits = fitted
}

let signals = SignalWaker()
let memory = MemoryReturn()
let waker = ConnectionWaker(choreInterval: 2) { memory.check() }
let hub = MonitorHub { change, shown in waker.modelChanged(change: change, shown: shown) }
let queue = FrameQueue()
let server: HTTPServer
let healthServer: HTTPServer
do {
    server = try HTTPServer(
        address: address, router: Router(hub: hub, queue: queue), hub: hub, waker: waker, memory: memory,
        settings: .init(
            connections: limits.maxConnections, perAddress: limits.maxConnectionsPerAddress, maxStreams: limits.maxStreams,
            requestTimeout: limits.requestTimeout, threads: 2),
        log: log)
    healthServer = try HTTPServer(
        address: healthAddress, router: Router(hub: hub, queue: queue, healthOnly: true), hub: hub, waker: waker, memory: memory,
        settings: .init(
            connections: MonitorLimits.healthConnections, perAddress: MonitorLimits.healthConnectionsPerAddress, maxStreams: 0,
            requestTimeout: limits.requestTimeout, threads: 1),
        log: log)
} catch {
    log.error("\(error)")
    exit(1)
}
let wakerThread = OSThread { waker.run() }
var served = address
served.port = server.port
var healthServed = healthAddress
healthServed.port = healthServer.port
log.info("version \(MonsterBus.version), pid \(getpid()), subscribed at \(config.backend); serving \(served), health on \(healthServed)/healthz")
log.info("limits: \(limits.maxConnections) connections, \(limits.maxConnectionsPerAddress) per address, \(limits.maxStreams) streams, requests within \(limits.requestTimeout) s; \(descriptors) open files")

do {
    let context = try ZMQContext()
    let stop = signals.readDescriptor
    let reader = OSThread { MonitorBus.read(config: config, context: context, queue: queue, hub: hub, stop: stop, log: log) }
    let worker = OSThread { MonitorBus.work(config: config, context: context, queue: queue, hub: hub, log: log) }
    reader.join()
    worker.join()
    hub.stop()
    waker.stop()
    wakerThread.join()
    server.stop()
    healthServer.stop()
    context.shutdown()
    log.info("stopped")
    exit(0)
} catch {
    log.error("\(error)")
    exit(1)
}
