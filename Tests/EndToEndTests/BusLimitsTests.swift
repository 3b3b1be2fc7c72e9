import Domain
import Foundation
import ProcessSupport
import Testing
import ZeroMQ
import TestTiers

/// A process's resident memory in bytes (VmRSS), or nil if it is gone.
func residentBytes(of pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
    return kilobytes * 1024
}

/// Input of any size or shape from an authorised client, through the real bus on CURVE: huge
/// and countless subscriptions, 100 MB frames up and down. The bus and every service stay up
/// and answer, and the bus's memory comes back once the client has left.
@Suite(.serialized, .tags(.processes)) final class BusLimitsTests {
    let keys: KeysFolder
    let stack: Stack
    let context: ZMQContext
    let gatewayKeys: CurveKeyPair

    init() throws {
        keys = try KeysFolder()
        stack = try Stack(curve: keys)
        context = try ZMQContext()
        gatewayKeys = try #require(try Certificate.load(keys.path + "/gateway.key_secret").keyPair)
    }

    /// A socket of `type` connected as the gateway to `endpoint`.
    func socket(_ type: SocketType, _ endpoint: String) throws -> ZMQSocket {
        let socket = try ZMQSocket(context, type)
        try socket.makeCurveClient(gatewayKeys, serverKey: try keys.busKey())
        try socket.set(.sendHighWaterMark, Int32(0))
        return socket
    }

    var busPid: Int32 { stack.processes["bus"]!.pid }

    /// Everything still answers: a real action succeeds end to end.
    func expectEverythingAnswers() throws {
        let result = try stack.json("ipad", "tap", "add")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try stack.gateway(["ping"]).status == 0)
        for name in ["bus"] + Stack.services { #expect(stack.processes[name]?.isRunning == true, "\(name)") }
    }

    /// Runs `attack` (which closes its sockets), then waits for the bus's memory to come back
    /// within 10 MB of what it was before.
    func expectMemoryComesBack(_ what: String, _ attack: () throws -> Void) throws {
        try expectEverythingAnswers()
        let before = try #require(residentBytes(of: busPid))
        try attack()
        try expectEverythingAnswers()
        var after = residentBytes(of: busPid) ?? .max
        let deadline = Date().addingTimeInterval(15)
        while after > before + 10_000_000, Date() < deadline {
            _ = try stack.gateway(["ping", "bus"])   // keeps the bus busy freeing, and proves it is up
            after = residentBytes(of: busPid) ?? .max
        }
        #expect(after <= before + 10_000_000, "\(what): bus RSS \(before / 1_000_000) MB before, \(after / 1_000_000) MB after")
    }

    @Test func aOneMegabyteSubscriptionIsCutOffBeforeItReachesTheTrie() throws {
        try expectMemoryComesBack("1 MB subscriptions") {
            for size in [112 * 1024, 1_048_576] {
                // libzmq's trie recurses once per byte, in this process too: the subscriber
                // lives on a thread with a stack large enough for it, and unsubscribes before it
                // closes (libzmq frees a socket's trie on its reaper thread, whose stack is small).
                let connected = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
                let context = self.context, keys = gatewayKeys, server = try self.keys.busKey(), backend = stack.backend
                let failure = Locked<String?>(nil)
                let thread = OSThread(stackBytes: 512 << 20) {
                    do {
                        let subscriber = try ZMQSocket(context, .sub)
                        try subscriber.makeCurveClient(keys, serverKey: server)
                        try subscriber.subscribe(String(repeating: "s", count: size))
                        try subscriber.connect(backend)
                        connected.signal()
                        done.wait()
                        try subscriber.unsubscribe(String(repeating: "s", count: size))
                        subscriber.close()
                    } catch {
                        failure.withLock { $0 = "\(error)" }
                        connected.signal()
                    }
                }
                connected.wait()
                try expectEverythingAnswers()
                done.signal()
                thread.join()
                #expect(failure.current == nil)
            }
        }
    }

    @Test func tenThousandSubscriptionsOnOneConnection() throws {
        try expectMemoryComesBack("10,000 subscriptions") {
            let subscriber = try socket(.sub, stack.backend)
            for index in 0..<10_000 { try subscriber.subscribe("sys.\(index)-" + String(repeating: "z", count: 8)) }
            for topic in MessageType.allCases { try subscriber.subscribe(topic.rawValue) }
            try subscriber.connect(stack.backend)
            // Its legitimate subscriptions work: it hears heartbeats.
            #expect(try subscriber.receive(timeoutMilliseconds: 10_000) != nil)
            try expectEverythingAnswers()
            subscriber.close()
        }
        let status = try stack.gateway(["--json", "status"])
        let counters = value(status.body("sys.status"), "bus.counters") as? [String: Int] ?? [:]
        #expect((counters["subscriptionsRefused"] ?? 0) >= 10_000, "\(counters)")
    }

    @Test func hundredMegabyteFramesInEitherDirection() throws {
        try expectMemoryComesBack("100 MB frames") {
            let huge = [UInt8](repeating: UInt8(ascii: "x"), count: 100_000_000)
            // Down: a publisher's frame, to the frontend.
            let publisher = try socket(.pub, stack.frontend)
            try publisher.connect(stack.frontend)
            // Up: a subscriber-side socket sending data to the backend.
            let upstream = try socket(.xsub, stack.backend)
            try upstream.connect(stack.backend)
            for _ in 0..<3 {
                try publisher.send([Array("device.tap".utf8), huge])
                try upstream.send([huge])
            }
            try expectEverythingAnswers()
            publisher.close()
            upstream.close()
        }
    }
}
