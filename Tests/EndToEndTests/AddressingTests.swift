import Domain
import Foundation
import Testing
import Wire
import TestTiers

/// DESIGN (topics): a client with a `replyTo` address subscribed to its own answers hears its
/// own decisions and acknowledgements and no other client's; a watcher subscribed by type hears
/// both; a device's request reaches the services on its bucket's topic, set by the bus, and a
/// tap only its owner (`device.tap/OWNER/BUCKET`, the owner set by the bus from the body).
@Suite(.serialized, .tags(.processes)) final class AddressingTests {
    @Test func twoClientsEachReceiveOnlyTheirOwnAnswersAndAWatcherSeesBoth() throws {
        let policy = MonsterBus.Service.presentationPolicy
        let stack = try Stack(services: [policy])
        let first = try TestClient(stack, subscriptions: Topic.clientSubscriptions(address: "0123456789abcdef"), address: "0123456789abcdef")
        let second = try TestClient(stack, subscriptions: Topic.clientSubscriptions(address: "fedcba9876543210"), address: "fedcba9876543210")
        let watcher = try TestClient(stack, subscriptions: [""], service: "watcher")
        for client in [first, second, watcher] { #expect(client.waitForPath(to: [policy], timeout: 15)) }

        let mine = try first.publish(.tap(Tap(element: "add", profile: .ipad)), device: "addressed-1")
        let theirs = try second.publish(.tap(Tap(element: "add", profile: .ipad)), device: "addressed-2")
        for (client, own, other) in [(first, mine, theirs), (second, theirs, mine)] {
            var decided = false
            var acknowledged = false
            var foreign: [Envelope] = []
            let deadline = Date().addingTimeInterval(10)
            while !(decided && acknowledged), let envelope = client.next(until: deadline) {
                if envelope.correlationId == other.id { foreign.append(envelope) }
                guard envelope.correlationId == own.id else { continue }
                #expect(envelope.replyTo == own.replyTo, "every message an action causes carries its replyTo")
                if case .presented = envelope.body { decided = true }
                if case .ack = envelope.body { acknowledged = true }
            }
            #expect(decided && acknowledged)
            // Anything of the other client's still in flight arrives within this.
            while let envelope = client.next(until: Date().addingTimeInterval(0.3)) {
                if envelope.correlationId == other.id { foreign.append(envelope) }
            }
            #expect(foreign.isEmpty, "a client heard another client's answers: \(foreign.map(\.type.rawValue))")
        }
        // The watcher, subscribed to everything, saw both acknowledgements, and both actions on
        // their devices' bucket topics (it decodes them, so their topics matched).
        var acks: Set<String> = []
        var actions: Set<String> = []
        let deadline = Date().addingTimeInterval(5)
        while acks.count < 2 || actions.count < 2, let frames = try watcher.bus.receiveFrames(timeoutMilliseconds: max(1, Int(deadline.timeIntervalSinceNow * 1000))) {
            guard let envelope = try? watcher.bus.codec.decode(frames: frames) else { continue }
            if case .ack(let ack) = envelope.body { acks.insert(ack.handledId) }
            if envelope.id == mine.id || envelope.id == theirs.id {
                actions.insert(envelope.id)
                let topic = String(decoding: frames[0], as: UTF8.self)
                #expect(topic == "device.tap/presentation-policy/" + Topic.bucket(ofDevice: envelope.device ?? ""))
            }
        }
        #expect(acks.isSuperset(of: [mine.id, theirs.id]))
        #expect(actions == [mine.id, theirs.id])
    }

    @Test func theBusKeysADevicesRequestByItsBucketWhateverTopicItsSenderWrote() throws {
        let policy = MonsterBus.Service.presentationPolicy
        let stack = try Stack(services: [policy])
        let device = "bucketed"
        let bucket = Topic.bucket(ofDevice: device)
        // Subscribed to that bucket's taps only, and to another bucket's.
        let other = Topic.bucketName((try #require(Int(bucket, radix: 16)) + 1) % Topic.bucketCount)
        let listener = try TestClient(
            stack, subscriptions: ["device.tap/presentation-policy/" + bucket, "device.tap/presentation-policy/" + other, "device.tap/input-handling", "ack"],
            service: "listener")
        let sender = try TestClient(stack, subscriptions: [], service: "sender")
        for client in [listener, sender] { #expect(client.waitForPath(to: [policy], timeout: 15)) }
        var topics: [String] = []
        // A sender cannot mis-route one either: the bus names the owner.
        let written = ["device.tap", "device.tap/" + other, "device.tap/zz", "device.tap/input-handling/" + bucket, "device.tap/presentation-policy/" + other]
        for written in written {
            let action = sender.bus.envelope(.tap(Tap(element: "add", profile: .ipad)), device: device)
            var frames = try sender.bus.codec.frames(action)
            frames[0] = Array(written.utf8)
            try sender.bus.sendRaw(frames)
            let deadline = Date().addingTimeInterval(5)
            while let frames = try listener.bus.receiveFrames(timeoutMilliseconds: max(1, Int(deadline.timeIntervalSinceNow * 1000))) {
                guard let envelope = try? listener.bus.codec.decode(frames: frames), envelope.id == action.id else { continue }
                topics.append(String(decoding: frames[0], as: UTF8.self))
                break
            }
        }
        #expect(topics == Array(repeating: "device.tap/presentation-policy/" + bucket, count: written.count))
    }

    /// Each owner receives only its own taps. An `add` tap reaches presentation-policy
    /// and not input-handling (which neither acknowledges nor even receives it: its heartbeat's
    /// `ignored` stays 0), a picker button's tap reaches input-handling and not
    /// presentation-policy, and a watcher subscribed to `device.tap` sees both.
    @Test func eachOwnerReceivesOnlyItsOwnTapsAndAWatcherSeesThemAll() throws {
        let policy = MonsterBus.Service.presentationPolicy, input = MonsterBus.Service.inputHandling
        let stack = try Stack(services: [policy, input])
        let client = try TestClient(stack, subscriptions: ["ack", "error", MessageType.heartbeat.rawValue], service: "client")
        let watcher = try TestClient(stack, subscriptions: ["device.tap"], service: "watcher")
        for client in [client, watcher] { #expect(client.waitForPath(to: [policy, input], timeout: 15)) }
        let device = "owned"
        let add = try client.publish(.tap(Tap(element: "add", profile: .ipad)), device: device)
        let fire = try client.publish(.tap(Tap(element: "fire", profile: .ipad)), device: device)
        // Who acknowledged which tap, until each service's heartbeat sent after its last ack.
        var acks: [String: Set<String>] = [:]
        var counters: [String: [String: UInt64]] = [:]
        let deadline = Date().addingTimeInterval(10)
        while counters.count < 2, let envelope = client.next(until: deadline) {
            switch envelope.body {
            case .ack(let ack) where [add.id, fire.id].contains(ack.handledId):
                acks[envelope.service, default: []].insert(ack.handledId)
            case .heartbeat(let beat) where acks.values.reduce(0) { $0 + $1.count } == 2 && [policy, input].contains(beat.service):
                counters[beat.service] = beat.counters
            default:
                break
            }
        }
        #expect(acks == [policy: [add.id], input: [fire.id]], "\(acks)")
        // Each had received the other's tap before its own (they were sent in that order) if
        // it was subscribed to it: it would have counted it ignored.
        #expect(counters[input]?["ignored"] ?? 0 == 0, "input-handling received a tap it does not own: \(counters)")
        #expect(counters[policy]?["ignored"] ?? 0 == 0, "presentation-policy received a tap it does not own: \(counters)")
        #expect(counters.count == 2, "\(counters)")
        var seen: [String: String] = [:]
        while seen.count < 2, let frames = try watcher.bus.receiveFrames(timeoutMilliseconds: max(1, Int(deadline.timeIntervalSinceNow * 1000))) {
            guard let envelope = try? watcher.bus.codec.decode(frames: frames) else { continue }
            seen[envelope.id] = String(decoding: frames[0], as: UTF8.self)
        }
        let bucket = Topic.bucket(ofDevice: device)
        #expect(seen == [add.id: "device.tap/presentation-policy/" + bucket, fire.id: "device.tap/input-handling/" + bucket])
    }
}
