import Domain
import Foundation
import Testing
import TestTiers

/// A slow consumer never slows anyone else: with a `gateway --json watch` stopped (SIGSTOP)
/// long enough to overflow its queue, another client's actions all succeed about as fast as
/// without it; once resumed, the watcher says what it missed.
@Suite(.serialized, .tags(.processes)) final class SlowConsumerTests {
    let keys: KeysFolder
    let stack: Stack

    init() throws {
        keys = try KeysFolder()
        // Small queues, so that a paused reader overflows its own quickly.
        stack = try Stack(environment: ["BUS_KEYS_DIR": keys.path, "BUS_HWM": "1000"])
    }

    /// Sends `count` taps, at most `window` in flight, and waits for presentation-policy's ack
    /// of each; returns each one's latency. An `error` about any of them fails the test.
    func act(_ client: TestClient, count: Int, window: Int) throws -> [Double] {
        var started: [String: Date] = [:]
        var latencies: [Double] = []
        var sent = 0
        let deadline = Date().addingTimeInterval(120)
        while latencies.count < count, Date() < deadline {
            while sent < count, started.count < window {
                let action = client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: "busy-\(sent % 50)")
                try client.bus.send(action)
                started[action.id] = Date()
                sent += 1
            }
            guard let envelope = client.next(until: Date().addingTimeInterval(10)) else { break }
            switch envelope.body {
            case .ack(let ack) where envelope.service == MonsterBus.Service.presentationPolicy:
                if let start = started.removeValue(forKey: ack.handledId) { latencies.append(Date().timeIntervalSince(start)) }
            case .error(let error) where started[envelope.correlationId] != nil:
                Issue.record("an action was refused: \(error.code) \(error.message)")
            default:
                break
            }
        }
        #expect(latencies.count == count, "\(count - latencies.count) action(s) never acknowledged")
        return latencies
    }

    func p99(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
    }

    @Test func aStoppedWatcherLosesItsOwnMessagesAndNobodyWaitsForIt() throws {
        let client = try TestClient(stack, subscriptions: ["ack", "error"], curve: true)
        #expect(client.waitForPath(to: [MonsterBus.Service.presentationPolicy]))
        _ = try act(client, count: 100, window: 1)   // warm-up
        // Other suites run beside this one: each side is measured twice, and the comparison is
        // of the better paused run with the worse unpaused one (before and after the watcher).
        var unpaused = p99(try act(client, count: 300, window: 1))

        let output = stack.folder.appendingPathComponent("watch.jsonl")
        let watcher = try stack.startGateway(["--json", "watch"], outputFile: output)
        #expect(watcher.waitForLine(timeout: 15) { $0.contains("watching the bus") ? true : nil } == true)
        watcher.signal(SIGSTOP)
        // Far more than its queues hold (1,000 at the bus, 1,000 in its socket, the kernel's buffers).
        _ = try act(client, count: 10_000, window: 100)
        let paused = min(p99(try act(client, count: 300, window: 1)), p99(try act(client, count: 300, window: 1)))
        watcher.signal(SIGCONT)

        #expect(watcher.waitForLine(timeout: 30) { $0.contains("missed") && $0.contains("from presentation-policy") ? true : nil } == true,
                "the watcher never said what it missed: \(watcher.stderr.suffix(500))")
        // The watcher told the bus, which counts it for `gateway status`.
        var losses = 0
        let deadline = Date().addingTimeInterval(30)
        while losses == 0, Date() < deadline {
            let status = try stack.gateway(["--json", "status"])
            losses = (value(status.body("sys.status"), "bus.counters") as? [String: Int])?["slowReaderLosses"] ?? 0
        }
        #expect(losses > 0)
        #expect(try stack.gateway(["ping"]).status == 0)
        watcher.signal(SIGTERM)
        #expect(watcher.waitForExit(timeout: 10) != nil)
        unpaused = max(unpaused, p99(try act(client, count: 300, window: 1)))
        // Generous: twice the unpaused p99, plus 5 ms for a machine shared with other builds.
        #expect(paused <= 2 * unpaused + 0.005, "p99 \(paused * 1000) ms with the watcher stopped, \(unpaused * 1000) ms without")
    }
}
