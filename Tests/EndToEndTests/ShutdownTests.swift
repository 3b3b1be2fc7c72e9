import Domain
import Foundation
import Processes
import Testing
import TestTiers

/// docs/durability.md: "On SIGTERM a service first handles every message that has already reached
/// it, then leaves" — with a backlog waiting, the drain is not empty.
@Suite(.serialized, .tags(.processes)) final class ShutdownTests {
    /// The number in the service's log line containing `prefix` followed by digits.
    func logged(_ child: ChildProcess, after prefix: String) -> Int? {
        child.waitForLine(timeout: 10) { line -> Int? in
            guard let range = line.range(of: prefix) else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    @Test func onSIGTERMAServiceWithABacklogHandlesWhatHadReachedItAndAcknowledgesAll() throws {
        let service = MonsterBus.Service.presentationPolicy
        let stack = try Stack(services: [service])
        let client = try TestClient(stack, subscriptions: ["ack"])
        var backlog = 3000
        for _ in 1...3 {
            #expect(client.waitForPath(to: [service], timeout: 15))
            let policy = try #require(stack.processes[service])
            // Stopped, the service takes nothing: every action queues up on its way to it, and
            // once it runs again its I/O thread fills its queue far faster than it handles them
            // (it handles at most 1000 before it looks at signals again).
            policy.signal(SIGSTOP)
            var sent: Set<String> = []
            for index in 0..<backlog {
                let action = client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: "backlog-\(index % 50)")
                try client.bus.send(action)
                sent.insert(action.id)
            }
            // The bus's answer to a ping sent after them proves the proxy has passed them all on
            // (in order): they wait in the bus's queue to the service, not in the proxy.
            #expect(client.waitForPath(to: [MonsterBus.Service.bus]))
            policy.signal(SIGCONT)
            let first = client.waitFor(timeout: 10) {
                if case .ack(let ack) = $0.body { return sent.contains(ack.handledId) }
                return false
            }
            #expect(first != nil)
            #expect(stack.stop(service, signal: SIGTERM) == 0)
            let drained = try #require(logged(policy, after: "signal received; handled "))
            let handled = try #require(logged(policy, after: " handled="))
            var acknowledged = first == nil ? 0 : 1
            while acknowledged < handled, let envelope = client.next(until: Date().addingTimeInterval(5)) {
                if case .ack(let ack) = envelope.body, sent.contains(ack.handledId) { acknowledged += 1 }
            }
            #expect(acknowledged == handled, "handled \(handled), acknowledged \(acknowledged)")
            if drained > 0 { return }
            // Actions still queued when SIGTERM came must be handled before the service leaves.
            #expect(handled == backlog, "handled \(handled) of \(backlog), none of them after the signal")
            // It had caught up before the signal arrived, so nothing was shown: again, with more.
            backlog *= 2
            try stack.start(service)
        }
        Issue.record("the service never had a backlog when SIGTERM arrived")
    }

    /// A backlog waiting when SIGTERM comes, and SHUTDOWN_DEADLINE_MS of 0: the service handles
    /// at most one message of it, says it left the rest, and leaves cleanly.
    @Test func theDrainAfterSIGTERMStopsAtTheShutdownDeadline() throws {
        let service = MonsterBus.Service.presentationPolicy
        let stack = try Stack(services: [service], environment: ["SHUTDOWN_DEADLINE_MS": "0"])
        let client = try TestClient(stack, subscriptions: ["ack"])
        #expect(client.waitForPath(to: [service], timeout: 15))
        let policy = try #require(stack.processes[service])
        policy.signal(SIGSTOP)
        for index in 0..<5000 {
            try client.bus.send(client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: "deadline-\(index % 50)"))
        }
        #expect(client.waitForPath(to: [MonsterBus.Service.bus]))
        // Both arrive together when it runs again: the signal, and thousands of messages waiting.
        policy.signal(SIGTERM)
        policy.signal(SIGCONT)
        #expect(policy.waitForExit(timeout: 10) == 0)
        #expect(policy.waitForLine(timeout: 5) { $0.contains("SHUTDOWN_DEADLINE_MS (0 ms) passed") ? true : nil } == true)
        let drained = try #require(logged(policy, after: "signal received; handled "))
        #expect(drained == 1)
    }

    /// A second signal while the first is being handled: the service leaves at once, status 1.
    @Test func aSecondSignalMakesAServiceLeaveAtOnce() throws {
        let service = MonsterBus.Service.presentationPolicy
        let stack = try Stack(services: [service], environment: ["SHUTDOWN_DEADLINE_MS": "60000"])
        let client = try TestClient(stack, subscriptions: ["ack"])
        #expect(client.waitForPath(to: [service], timeout: 15))
        let policy = try #require(stack.processes[service])
        // Stopped, it gets both signals at once when it runs again (two different ones: the
        // same signal twice would be delivered once).
        policy.signal(SIGSTOP)
        policy.signal(SIGTERM)
        policy.signal(SIGINT)
        policy.signal(SIGCONT)
        #expect(policy.waitForExit(timeout: 10) == 1)
        #expect(policy.waitForLine(timeout: 5) { $0.contains("a second signal") ? true : nil } == true)
    }
}
