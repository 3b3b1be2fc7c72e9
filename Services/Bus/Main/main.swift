import Domain
import Glibc
import ProcessSupport
import ZeroMQ

// bus: the XSUB/XPUB proxy every other process connects to (`Bus`). Publishers connect to
// BUS_FRONTEND (XSUB), subscribers to BUS_BACKEND (XPUB).

if case .exit(let status) = ProgramStart.begin(name: "bus", versionDetail: " (libzmq \(zmqVersion))", help: {
    ProgramHelp(
        usage: "bus",
        summary: """
            Runs the message bus: an XSUB/XPUB proxy that enforces each client's role (the `role` in its
            certificate's metadata; see docs/security.md). With BUS_KEYS_DIR it serves with
            bus.key_secret and admits only authorized/*.key.
            """,
        options: [.help, .version], environment: EnvironmentVariable.bus
    )
}) {
    exit(status)
}

let bus: Bus
do {
    let forwarding: Bus.Forwarding = getenv("BUS_PROXY").map { String(cString: $0) == "zmq_proxy" } == true ? .zmqProxy : .ownLoop
    bus = try Bus(config: BusConfig.fromEnvironment(component: MonsterBus.Service.bus), forwarding: forwarding)
} catch {
    Log.standardError("bus: \(error)\n")
    exit(2)
}
exit(bus.run())
