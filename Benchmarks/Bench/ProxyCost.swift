// The bus's cost per message: its own loop (roles, permission table, `service` check, on
// CURVE) against libzmq's zmq_proxy (`BUS_PROXY=zmq_proxy`), two buses side by side with the
// same keys, the same client and the same messages, alternating round after round.

import Domain
import Glibc
import ProcessSupport
import Wire
import ZeroMQ

/// One measured run through one bus.
struct ProxyCostRun {
    /// Messages that went through (sent and received).
    var messages = 0
    /// Wall time.
    var seconds = 0.0
    /// The bus process's CPU time meanwhile.
    var busCPUSeconds = 0.0
    /// Messages sent that never arrived.
    var lost = 0

    /// The bus's CPU µs per message.
    var cpuMicrosecondsEach: Double { messages > 0 ? busCPUSeconds * 1e6 / Double(messages) : 0 }
    /// Messages per second.
    var rate: Double { seconds > 0 ? Double(messages) / seconds : 0 }
}

/// A gateway-role client of one bus: a PUB and a SUB (`device.tap`) on CURVE, in this thread.
private final class ProxyCostClient {
    let publisher: ZMQSocket
    let subscriber: ZMQSocket
    let busPid: pid_t

    init(context: ZMQContext, frontend: String, backend: String, keys: CurveKeyPair, serverKey: CurveKey, busPid: pid_t) throws {
        publisher = try ZMQSocket(context, .pub)
        subscriber = try ZMQSocket(context, .sub)
        for socket in [publisher, subscriber] { try socket.makeCurveClient(keys, serverKey: serverKey) }
        try publisher.set(.sendHighWaterMark, Int32(0))
        try subscriber.set(.receiveHighWaterMark, Int32(0))
        try subscriber.subscribe(MessageType.tap.rawValue)
        try publisher.connect(frontend)
        try subscriber.connect(backend)
        self.busPid = busPid
    }

    func close() {
        publisher.close()
        subscriber.close()
    }

    /// Sends until a message comes back: both connections are up and subscribed.
    func handshake(_ frames: [[UInt8]]) throws {
        let deadline = Timestamp.monotonic() + 20
        while Timestamp.monotonic() < deadline {
            try publisher.send(frames)
            if try subscriber.receive(timeoutMilliseconds: 50) != nil {
                while try subscriber.receive(timeoutMilliseconds: 100) != nil {}
                return
            }
        }
        throw BenchError("the proxy-cost client never heard back from its bus")
    }

    /// Sends `window` messages, receives them, again and again for `seconds`.
    func run(_ frames: [[UInt8]], seconds: Double, window: Int) throws -> ProxyCostRun {
        var run = ProxyCostRun()
        let cpuBefore = ProcessStats.cpuSeconds(busPid) ?? 0
        let started = Timestamp.monotonic()
        while Timestamp.monotonic() - started < seconds {
            for _ in 0..<window { try publisher.send(frames) }
            var received = 0
            while received < window, try subscriber.receive(timeoutMilliseconds: 3000) != nil { received += 1 }
            run.messages += received
            run.lost += window - received
            if received < window { break }
        }
        run.seconds = Timestamp.monotonic() - started
        run.busCPUSeconds = (ProcessStats.cpuSeconds(busPid) ?? cpuBefore) - cpuBefore
        return run
    }
}

enum ProxyCostBench {
    /// Starts the two buses on CURVE (keys made in `stack`'s folder), then measures `rounds`
    /// alternating runs of `seconds` each with `envelope` (a gateway's action).
    static func run(stack: BenchStack, envelope: [UInt8], rounds: Int, seconds: Double, window: Int) throws -> (own: [ProxyCostRun], zmqProxy: [ProxyCostRun]) {
        let keysFolder = stack.folder + "/proxy-cost-keys"
        mkdir(keysFolder, 0o700)
        mkdir(keysFolder + "/authorized", 0o700)
        let bus = try Certificate.generate(metadata: ["name": "bus", "role": "bus"])
        try bus.save(in: keysFolder, name: "bus")
        let gateway = try Certificate.generate(metadata: ["name": "gateway", "role": "gateway"])
        try gateway.publicCertificate.save(in: keysFolder + "/authorized", name: "gateway")
        let environment = ["BUS_KEYS_DIR": keysFolder, "LOG_LEVEL": "warn"]
        let own = try stack.startExtraBus(logName: "bus-own-loop", extra: environment)
        var zmqEnvironment = environment
        zmqEnvironment["BUS_PROXY"] = "zmq_proxy"
        let zmq = try stack.startExtraBus(logName: "bus-zmq-proxy", extra: zmqEnvironment)

        let context = try ZMQContext()
        let ownClient = try ProxyCostClient(
            context: context, frontend: own.frontend, backend: own.backend, keys: gateway.keyPair!, serverKey: bus.publicKey, busPid: own.process.pid)
        let zmqClient = try ProxyCostClient(
            context: context, frontend: zmq.frontend, backend: zmq.backend, keys: gateway.keyPair!, serverKey: bus.publicKey, busPid: zmq.process.pid)
        defer { ownClient.close(); zmqClient.close() }
        let frames = [Array(MessageType.tap.rawValue.utf8), envelope]
        try ownClient.handshake(frames)
        try zmqClient.handshake(frames)
        // Warm both up, unmeasured.
        _ = try ownClient.run(frames, seconds: min(0.5, seconds), window: window)
        _ = try zmqClient.run(frames, seconds: min(0.5, seconds), window: window)
        var result: (own: [ProxyCostRun], zmqProxy: [ProxyCostRun]) = ([], [])
        for round in 0..<rounds {
            let ownRun = try ownClient.run(frames, seconds: seconds, window: window)
            let zmqRun = try zmqClient.run(frames, seconds: seconds, window: window)
            result.own.append(ownRun)
            result.zmqProxy.append(zmqRun)
            progress("round \(round + 1)/\(rounds): bus CPU per message: own loop \(format(ownRun.cpuMicrosecondsEach, 2)) µs, zmq_proxy \(format(zmqRun.cpuMicrosecondsEach, 2)) µs; \(format(ownRun.rate, 0)) vs \(format(zmqRun.rate, 0)) msg/s")
        }
        if !own.process.isRunning || !zmq.process.isRunning { throw BenchError("a proxy-cost bus died:\n\(own.process.logTail())\n\(zmq.process.logTail())") }
        return result
    }
}
