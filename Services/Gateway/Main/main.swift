import Embedded
import FoundationEssentials
import GatewayKit
import Glibc
import ProcessSupport


// gateway: the CLI that acts as a simulated device; with --embedded (and `gateway test`, once
// per file), with the services inside.
ParentWatch.start()
let status = Gateway.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment) { config in
    let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { LogLevel(rawValue: $0.lowercased()) } ?? .warn
    let services = try EmbeddedServices(config: config, logLevel: level)
    return EmbeddedStack(transport: services.connect(), stop: services.stop)
}
exit(status)
