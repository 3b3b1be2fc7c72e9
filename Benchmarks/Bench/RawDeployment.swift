// A bus of its own with raw echoes and a raw client: libzmq alone in the shape of the sharded
// row (`ShardScaling`) or of another replication (`RawShapes`).

import Processes
import ZeroMQ

/// A bus of its own with raw echoes and a raw client: one echo answering as the unsharded
/// instance does (`count` 0: the decision and the acknowledgement), or `count` answering as
/// sharded instances do (`RawEcho.run(member:)`, or in `replication`'s shape), each the standby
/// of the one before.
final class RawDeployment {
    let bus: BusProcess
    let echoes: [ChildProcess]
    let client: RawClient
    let members: Int
    /// How the logs name it: the echo count, and the shape when it is not `active`.
    let name: String

    init(stack: BenchStack, context: ZMQContext, count: Int, payload: [UInt8], replication: RawWire.Replication = .active) throws {
        let name = replication == .active ? "\(count)" : "\(count)-\(replication.rawValue)"
        self.name = name
        let bus = try stack.startExtraBus(logName: "shard-raw-bus-\(name)", extra: [:])
        self.bus = bus
        members = count
        echoes = try (0..<max(count, 1)).map { index in
            try stack.startEcho(
                logName: "shard-raw-\(name)-echo-\(index)", endpoints: (bus.frontend, bus.backend),
                arguments: count == 0 ? [] : ["--member", "\(index)", "\(count)", "--shape", replication.rawValue])
        }
        var config = stack.config
        (config.frontend, config.backend) = (bus.frontend, bus.backend)
        client = try RawClient(context: context, config: config, payload: payload)
        if count == 0 {
            try client.handshake(timeout: 20)
        } else {
            try client.handshake(members: count, shape: RawClient.productAddTap, update: RawClient.productUpdate, timeout: 20)
        }
    }

    /// Round trips per second for `seconds`, `window` in flight, answered in the product's sizes.
    func measure(seconds: Double, window: Int) throws -> Throughput {
        try client.windowedEcho(seconds: seconds, window: window, shape: RawClient.productAddTap, members: members, update: RawClient.productUpdate)
    }

    /// One turn against `reference` (one echo answering as the unsharded instance does), measured
    /// just before: this deployment's round trips per second ÷ the reference's, and both runs. A
    /// lost message is an error: the ratio would not be one of round trips.
    func turn(against reference: RawDeployment, seconds: Double, window: Int) throws -> (ratio: Double, run: Throughput, echo: Throughput) {
        let echo = try reference.measure(seconds: seconds, window: window)
        let run = try measure(seconds: seconds, window: window)
        guard echo.lost == 0, run.lost == 0 else { throw BenchError("the raw echoes lost messages (\(name))") }
        return (echo.rate > 0 ? run.rate / echo.rate : 0, run, echo)
    }

    /// Stops the client, the echoes and the bus.
    func stop() {
        client.close()
        for echo in echoes { echo.stop() }
        bus.process.stop()
    }
}
