import Domain
import Foundation
import Processes
import Testing
import TestTiers

/// docs/durability.md: on SIGTERM the bus stops taking messages and passes on what it had already
/// forwarded for at most `SHUTDOWN_DEADLINE_MS`; a second signal makes it leave at once.
@Suite(.serialized, .tags(.processes)) final class BusShutdownTests {
    let bus = MonsterBus.Service.bus

    /// A bus with the given deadline and a subscriber that has stopped reading (`gateway watch`
    /// under SIGSTOP) while far more was forwarded to it than the kernel's buffers hold: the rest
    /// waits in the bus's queue for it.
    func stackWithAStuckSubscriber(deadline: Int) throws -> (Stack, ChildProcess) {
        let stack = try Stack(services: [], environment: ["SHUTDOWN_DEADLINE_MS": "\(deadline)"])
        let watcher = try stack.startGateway(["--json", "watch"], outputFile: stack.folder.appendingPathComponent("watch.jsonl"))
        // It says so once the bus has answered it: its subscription is in place.
        #expect(watcher.waitForLine(timeout: 15) { $0.contains("watching the bus") ? true : nil } == true)
        watcher.signal(SIGSTOP)
        let client = try TestClient(stack, subscriptions: [])
        for index in 0..<5000 {
            try client.bus.send(client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: "stuck-\(index % 50)"))
        }
        // The bus's answer to a ping sent after them proves the proxy has passed them all on.
        #expect(client.waitForPath(to: [bus]))
        return (stack, watcher)
    }

    @Test func onSIGTERMTheBusWaitsForAStuckSubscriberOnlyUntilTheDeadline() throws {
        let (stack, watcher) = try stackWithAStuckSubscriber(deadline: 1000)
        defer { watcher.signal(SIGKILL) }
        let process = try #require(stack.processes[bus])
        #expect(stack.stop(bus, signal: SIGTERM, timeout: 10) == 0)
        #expect(process.stderr.contains("SHUTDOWN_DEADLINE_MS (1000 ms) passed"), "\(process.logTail())")
    }

    @Test func aSecondSignalMakesTheBusLeaveAtOnceWhileItWaitsForASubscriber() throws {
        let (stack, watcher) = try stackWithAStuckSubscriber(deadline: 600_000)
        defer { watcher.signal(SIGKILL) }
        let process = try #require(stack.processes[bus])
        process.signal(SIGTERM)
        #expect(process.waitForLine(timeout: 10) { $0.contains("signal received") ? true : nil } == true)
        // Waiting for the watcher, for up to ten minutes.
        #expect(process.isRunning)
        process.signal(SIGINT)
        #expect(process.waitForExit(timeout: 10) == 1)
        #expect(process.stderr.contains("a second signal"), "\(process.logTail())")
    }

    @Test func withServicesConnectedTheBusLeavesOnSIGTERMWithoutWaitingOutTheDeadline() throws {
        let stack = try Stack(environment: ["SHUTDOWN_DEADLINE_MS": "600000"])
        let client = try TestClient(stack, subscriptions: ["ack"])
        #expect(client.waitForPath(to: Stack.services + [bus]))
        let process = try #require(stack.processes[bus])
        #expect(stack.stop(bus, signal: SIGTERM, timeout: 10) == 0)
        #expect(process.stderr.contains(" ms after the signal"), "\(process.logTail())")
        #expect(!process.stderr.contains("passed"), "\(process.logTail())")
    }
}
