import BusKit
import Foundation
import MonsterKit
import Testing

/// README, Liveness: "On SIGTERM a service first handles every message that has already reached
/// it, then leaves" — with a backlog waiting, the drain is not empty.
@Suite(.serialized) final class ShutdownTests {
    @Test func onSIGTERMAServiceWithABacklogHandlesWhatHadReachedItAndAcknowledgesAll() throws {
        let stack = try Stack(services: [MonsterBus.Service.presentationPolicy])
        let client = try TestClient(stack, subscriptions: ["ack"])
        #expect(client.waitForPath(to: [MonsterBus.Service.presentationPolicy]))
        // More than the service handles in the time a signal takes to arrive (a backlog), few
        // enough that the drain stays well under the stop timeout on a loaded machine.
        var sent: Set<String> = []
        for index in 0..<1000 {
            let action = client.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: "backlog-\(index % 50)")
            try client.bus.send(action)
            sent.insert(action.id)
        }
        let first = client.waitFor(timeout: 10) {
            if case .ack(let ack) = $0.body { return sent.contains(ack.handledId) }
            return false
        }
        #expect(first != nil)
        let policy = try #require(stack.processes[MonsterBus.Service.presentationPolicy])
        #expect(stack.stop(MonsterBus.Service.presentationPolicy, signal: SIGTERM) == 0)
        let drained = try #require(policy.waitForLine(timeout: 5) { line -> Int? in
            guard let range = line.range(of: "signal received; handled ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        })
        #expect(drained > 0, "the messages waiting when SIGTERM came must be handled before leaving")
        let handled = try #require(policy.waitForLine(timeout: 5) { line -> Int? in
            guard let range = line.range(of: " handled=") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        })
        var acknowledged = first == nil ? 0 : 1
        while acknowledged < handled, let envelope = client.next(until: Date().addingTimeInterval(5)) {
            if case .ack(let ack) = envelope.body, sent.contains(ack.handledId) { acknowledged += 1 }
        }
        #expect(acknowledged == handled, "handled \(handled), acknowledged \(acknowledged)")
    }
}
