import BusKit
import Foundation
import MonitorKit
import MonsterKit
import ZeroMQ

// monitor: subscribes to the bus as a read-only observer and serves a live web page of every
// device's screen, the actions and what they caused, the services' health, and /metrics.

ParentWatch.start()
let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--version") {
    print("monitor \(MonsterBus.version)")
    exit(0)
}
if arguments.contains("--help") || arguments.contains("-h") {
    print("""
        usage: monitor
        Serves a live web page of Monster Bus: every device's screen (as gateway screen draws it),
        a timeline of actions with what each caused and how long each hop took, the services'
        health and counters, and /metrics for Prometheus. Configuration comes from the environment:
          MONITOR_ADDRESS        where to serve HTTP (default \(MonitorAddress.defaultText); port 0: any free port)
          BUS_FRONTEND           where publishers connect (default tcp://127.0.0.1:5555)
          BUS_BACKEND            where subscribers connect (default tcp://127.0.0.1:5556)
          LOG_LEVEL              debug, info, warn or error (default info)
          BUS_KEYS_DIR           CURVE keys folder (gateway keys init); unset: plaintext
          BUS_CLIENT_CERT        own secret certificate (default $BUS_KEYS_DIR/monitor.key_secret)
          BUS_SERVER_KEY         the bus's public key in Z85 (default from $BUS_KEYS_DIR/bus.key)
        """)
    exit(0)
}
if let unknown = arguments.first {
    Log.standardError("monitor: unknown argument '\(unknown)' (try --help)\n")
    exit(2)
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
