import BusKit
import GatewayKit
import Glibc

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// gateway: the CLI that acts as a simulated device.
ParentWatch.start()
exit(Gateway.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
