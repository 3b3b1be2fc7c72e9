import Embedded
import FoundationEssentials
import GatewayKit
import Glibc
import ProcessSupport


// gateway: the CLI that acts as a simulated device; with --embedded, with the services inside.
ParentWatch.start()
let environment = ProcessInfo.processInfo.environment
nonisolated(unsafe) var services: EmbeddedServices?
let status = Gateway.run(Array(CommandLine.arguments.dropFirst()), environment: environment) { config in
    let started = try EmbeddedServices(config: config, logLevel: environment["LOG_LEVEL"].flatMap { LogLevel(rawValue: $0.lowercased()) } ?? .warn)
    services = started
    return started.connect()
}
services?.stop()
exit(status)
