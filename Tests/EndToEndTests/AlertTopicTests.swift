import Domain
import Foundation
import Testing
import Wire
import TestTiers

/// A presentation's topic carries its style (`presentation.presented/STYLE/REPLYTO`),
/// and input-handling, which reads presentations only for whether a modal alert is up,
/// subscribes to alerts' only: a popover's presentation and dismissal never reach it (its
/// heartbeat's `received` and `handled` do not move), an alert's do, and the asking client
/// hears both styles on its address.
@Suite(.serialized, .tags(.processes)) final class AlertTopicTests {
    @Test func aPopoverNeverReachesInputHandlingAnAlertDoesAndTheClientHearsBoth() throws {
        let policy = MonsterBus.Service.presentationPolicy, input = MonsterBus.Service.inputHandling
        let stack = try Stack(services: [policy, input])
        let address = Topic.newAddress()
        let client = try TestClient(
            stack, subscriptions: Topic.clientSubscriptions(address: address) + [MessageType.heartbeat.rawValue], address: address)
        #expect(client.waitForPath(to: [policy, input], timeout: 15))

        /// The topics of the presentations of the taps, in order; input-handling's last counters.
        var topics: [String] = []
        var counters: [String: UInt64] = [:]
        /// Reads until `done` says so (or 10 s), noting input-handling's heartbeat counters.
        func read(until done: () -> Bool) {
            let deadline = Date().addingTimeInterval(10)
            while !done(), let frames = try? client.bus.receiveFrames(timeoutMilliseconds: max(1, Int(deadline.timeIntervalSinceNow * 1000))) {
                guard let envelope = try? client.bus.codec.decode(frames: frames) else { continue }
                if case .heartbeat(let beat) = envelope.body, beat.service == input { counters = beat.counters }
            }
        }
        /// Taps `add` on `device` and waits for presentation-policy's acknowledgement.
        func tapAdd(_ device: String, profile: DeviceProfile) throws {
            let action = try client.publish(.tap(Tap(element: "add", profile: profile)), device: device)
            var acknowledged = false
            let deadline = Date().addingTimeInterval(10)
            while !acknowledged, Date() < deadline, let frames = try? client.bus.receiveFrames(timeoutMilliseconds: max(1, Int(deadline.timeIntervalSinceNow * 1000))) {
                guard let envelope = try? client.bus.codec.decode(frames: frames) else { continue }
                if case .heartbeat(let beat) = envelope.body, beat.service == input { counters = beat.counters }
                if envelope.correlationId == action.id, Topic.styled.contains(envelope.type) {
                    topics.append(String(decoding: frames[0], as: UTF8.self))
                }
                if case .ack(let ack) = envelope.body, ack.handledId == action.id { acknowledged = true }
            }
            #expect(acknowledged, "no acknowledgement of tap add on \(device)")
        }

        // input-handling's counters once it has answered the pings: from its first heartbeat
        // after its pong to one more ping, sent after every ping the wait for the path sent
        // (which reach it first, on one path in order) — its heartbeat comes after its pong on
        // the same socket.
        let marker = try client.publish(.ping(Ping()))
        var answered = false
        let deadline = Date().addingTimeInterval(10)
        while counters.isEmpty, let envelope = client.next(until: deadline) {
            if case .pong(let pong) = envelope.body, pong.service == input, envelope.correlationId == marker.id { answered = true }
            if answered, case .heartbeat(let beat) = envelope.body, beat.service == input { counters = beat.counters }
        }
        let received = try #require(counters["received"]), handled = counters["handled"] ?? 0
        // On an iPad, `add` shows a popover, and a second tap dismisses it (toggle).
        try tapAdd("alert-topic-ipad", profile: .ipad)
        try tapAdd("alert-topic-ipad", profile: .ipad)
        #expect(topics == ["presentation.presented/popover/\(address)", "presentation.dismissed/popover/\(address)"])
        // On an iPhone, an alert: input-handling reads it. What it received before came first
        // (presentation-policy published the popovers before the alert, the bus forwards in order).
        topics = []
        try tapAdd("alert-topic-iphone", profile: .iphone)
        #expect(topics == ["presentation.presented/alert/\(address)"])
        read(until: { (counters["handled"] ?? 0) > handled })
        #expect(counters["handled"] == handled + 1, "input-handling handled a popover's presentation: \(counters)")
        #expect(counters["received"] == received + 1, "a popover's presentation reached input-handling: \(counters)")
        #expect(counters["ignored"] ?? 0 == 0)
    }
}
