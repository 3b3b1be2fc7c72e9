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
do {
    config = try BusConfig.fromEnvironment(environment, component: MonitorModel.name)
    address = try MonitorAddress(parsing: environment["MONITOR_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 } ?? MonitorAddress.defaultText)
} catch {
    Log.standardError("monitor: \(error)\n")
    exit(2)
}
let log = Log(service: MonitorModel.name, level: config.logLevel)
log.info(config.securitySummary)

let waker = SignalWaker()
let hub = MonitorHub()
let queue = FrameQueue()
let server: HTTPServer
do {
    server = try HTTPServer(address: address, router: Router(hub: hub, queue: queue))
} catch {
    log.error("\(error)")
    exit(1)
}
var served = address
served.port = server.port
log.info("version \(MonsterBus.version), pid \(getpid()), subscribed at \(config.backend); serving \(served)")

do {
    let context = try ZMQContext()
    let stop = waker.readDescriptor
    let reader = OSThread { MonitorBus.read(config: config, context: context, queue: queue, hub: hub, stop: stop, log: log) }
    let worker = OSThread { MonitorBus.work(config: config, context: context, queue: queue, hub: hub, log: log) }
    reader.join()
    worker.join()
    hub.stop()
    server.stop()
    context.shutdown()
    log.info("stopped")
    exit(0)
} catch {
    log.error("\(error)")
    exit(1)
}
