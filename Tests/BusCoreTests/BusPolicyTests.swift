import Processes
import BusCore
import Domain
import ProcessSupport
import Testing
import Wire
import TestTiers

/// The bus's decisions, without sockets: which role may publish what, as whom, and which
/// subscriptions it accepts.
@Suite(.tags(.unit)) struct BusPolicyTests {
    let policy = BusPolicy()

    /// Frames of a message of `type` claiming to come from `service`.
    func message(_ type: String, service: String) -> [[UInt8]] {
        [Array(type.utf8), Array(#"{"v":1,"type":"\#(type)","id":"m1","correlationId":"c1","service":"\#(service)","seq":1,"time":"t","body":{"service":"x"}}"#.utf8)]
    }

    /// For every role and every declared type, the policy allows exactly the declared publishers
    /// (the bit masks and the look-up of the topic's type part agree with the declarations).
    @Test func everyRoleMayPublishExactlyTheTypesDeclaredForIt() {
        for role in Role.allCases {
            let service = role.isComponent ? role.rawValue : "a-tool"
            for type in MessageType.allCases {
                let allowed = policy.refusal(from: .client(role), frames: message(type.rawValue, service: service)) == nil
                #expect(allowed == type.spec.publishers.contains(role), "\(role) \(type.rawValue)")
            }
        }
    }

    /// The declarations themselves, on the points that matter for safety: a client acts and
    /// asks but never speaks for a service; only the bus reports the status; every service
    /// answers; and every type someone sends has a publisher.
    @Test func theDeclaredPublishersKeepClientsFromSpeakingForServices() {
        for client in [Role.gateway, .observer] {
            let published = MessageType.allCases.filter { $0.spec.publishers.contains(client) }
            #expect(published.allSatisfy { $0.isDeviceAction || $0 == .forget || $0.rawValue.hasSuffix(".request") || [.ping, .lossReport].contains($0) }, "\(client): \(published)")
        }
        // The monitor reads; of the device actions it may only ask for a description.
        #expect(MessageType.allCases.filter { $0.spec.publishers.contains(.observer) && ($0.isDeviceAction || $0 == .forget) } == [.describe])
        #expect(MessageType.statusReport.spec.publishers == [.bus])
        for answer in [MessageType.ack, .error, .heartbeat, .pong, .unchanged, .forgotten] {
            #expect(Role.services.isSubset(of: answer.spec.publishers), "\(answer.rawValue)")
        }
        #expect(MessageType.allCases.filter { $0.spec.publishers.isEmpty } == [.outcome])
        // Apart from the answers every component gives, sys.ping, interaction.changed (each
        // service for its own views: the app's, the weapon picker's) and shard.replica (each
        // sharded service among its own instances), a type is its one owner's.
        let shared = MessageType.allCases.filter { $0.spec.publishers.filter(\.isComponent).count > 1 }
        #expect(Set(shared) == [.ack, .error, .heartbeat, .pong, .unchanged, .forgotten, .ping, .interactionChanged, .replica])
        #expect(MessageType.replica.spec.publishers == [.presentationPolicy, .inputHandling])
        #expect(MessageType.interactionChanged.spec.publishers == [.presentationPolicy, .inputHandling])
    }

    @Test func aServiceMustSendAsItself() {
        #expect(policy.refusal(from: .client(.roster), frames: message("roster.snapshot", service: "input-handling")) == .forgedService)
        #expect(policy.refusal(from: .client(.roster), frames: message("ack", service: "gateway")) == .forgedService)
    }

    @Test func aClientMayNotSendAsAComponentButMayNameItselfOtherwise() {
        for component in ["bus", "roster", "presentation-policy", "input-handling"] {
            #expect(policy.refusal(from: .client(.gateway), frames: message("device.tap", service: component)) == .forgedService)
        }
        #expect(policy.refusal(from: .client(.gateway), frames: message("sys.ping", service: "pyzmq-client")) == nil)
    }

    @Test func anEscapedServiceIsRefused() {
        let json = #"{"v":1,"type":"sys.pong","service":"rost\u0065r","id":"a","correlationId":"a"}"#
        #expect(policy.refusal(from: .client(.gateway), frames: [Array("sys.ping".utf8), Array(json.utf8)]) == .forgedService)
    }

    /// A refusal names the refused message's header members as written (escapes read), so that
    /// the bus's `error` goes to the sender's address with the sender's ids; one over 256 bytes
    /// is left out.
    @Test func aRefusalNamesTheRefusedHeader() throws {
        let long = String(repeating: "i", count: 257)
        let json = #"{"v":1,"type":"roster.snapshot","id":"m\u0031","correlationId":"c1","device":"ipad","service":"gateway","replyTo":"0123456789abcdef","body":{"id":"x"},"seq":1}"#
        guard case .refuse(.forbiddenTopic, let refused) = policy.route(from: .client(.gateway), frames: [Array("roster.snapshot".utf8), Array(json.utf8)]) else {
            Issue.record("a gateway's roster.snapshot was not refused forbidden-topic")
            return
        }
        #expect(refused.id == Array("m1".utf8) && refused.correlationId == Array("c1".utf8) && refused.device == Array("ipad".utf8))
        #expect(refused.service == Array("gateway".utf8) && refused.replyTo == Array("0123456789abcdef".utf8))
        let longId = #"{"id":"\#(long)","service":"gateway","replyTo":"r"}"#
        guard case .refuse(_, let cut) = policy.route(from: .client(.gateway), frames: [Array("roster.snapshot".utf8), Array(longId.utf8)]) else {
            Issue.record("not refused")
            return
        }
        #expect(cut.id.isEmpty && cut.replyTo == Array("r".utf8))
    }

    /// An escaped `service` is refused whatever it spells, a name no component has included: the
    /// bus compares names as written, and no honest sender escapes one.
    @Test func aServiceWrittenWithEscapesIsRefusedWhateverItSpells() {
        let json = #"{"v":1,"type":"sys.ping","service":"pyzmq\u002dclient","id":"a","correlationId":"a"}"#
        #expect(policy.refusal(from: .client(.gateway), frames: [Array("sys.ping".utf8), Array(json.utf8)]) == .forgedService)
        #expect(policy.refusal(from: .client(.gateway), frames: message("sys.ping", service: "pyzmq-client")) == nil)
    }

    /// A key written with escapes is the same key to a JSON decoder: `"\u0073ervice"` is `service`.
    @Test func anEscapedKeyIsReadAsTheKeyItSpells() {
        let json = #"{"v":1,"type":"sys.ping","\u0073ervice":"roster","id":"a","correlationId":"a"}"#
        #expect(policy.refusal(from: .client(.gateway), frames: [Array("sys.ping".utf8), Array(json.utf8)]) == .forgedService)
    }

    @Test func theServiceOfTheBodyIsNotTheSenders() {
        // The header says gateway; a `service` inside the body changes nothing.
        #expect(policy.refusal(from: .client(.gateway), frames: message("device.tap", service: "gateway")) == nil)
        let json = #"{"body":{"service":"gateway"},"service":"roster"}"#
        #expect(policy.refusal(from: .client(.gateway), frames: [Array("device.tap".utf8), Array(json.utf8)]) == .forgedService)
    }

    @Test func unreadableJSONIsLeftToTheServicesIfTheTopicIsAllowed() {
        #expect(policy.refusal(from: .client(.gateway), frames: [Array("device.tap".utf8), Array("{not json".utf8)]) == nil)
        #expect(policy.refusal(from: .client(.gateway), frames: [Array("roster.snapshot".utf8), Array("{not json".utf8)]) == .forbiddenTopic)
    }

    @Test func aTypeThisBuildDoesNotDeclareIsPublishedByNobody() {
        #expect(policy.refusal(from: .client(.gateway), frames: message("device.forget", service: "gateway")) == nil)
        #expect(policy.refusal(from: .client(.roster), frames: message("roster.backup.done", service: "roster")) == .forbiddenTopic)
        #expect(policy.refusal(from: .client(.gateway), frames: message("device.shake", service: "gateway")) == .forbiddenTopic)
        #expect(policy.refusal(from: .client(.gateway), frames: message("bench.ping", service: "gateway")) == .forbiddenTopic)
    }

    @Test func revokedKeysAndTooManyFramesAreRefusedAndPlaintextIsAsBefore() {
        #expect(policy.refusal(from: .revoked, frames: message("sys.ping", service: "gateway")) == .revoked)
        #expect(policy.refusal(from: .client(.gateway), frames: message("sys.ping", service: "gateway") + [[], [], [], []]) == .tooManyFrames)
        // Two frames for a request, and at most five for an update (with its acknowledgement):
        // the fifth passes, the sixth is refused, whoever sends it.
        #expect(BusPolicy.maximumFrames == 5)
        #expect(policy.refusal(from: .client(.gateway), frames: message("sys.ping", service: "gateway") + [[]]) == .tooManyFrames)
        #expect(policy.refusal(from: .anonymous, frames: message("device.tap", service: "gateway") + [[], [], []]) == .tooManyFrames)
        let update = message("shard.replica/presentation-policy/pp-2", service: "presentation-policy")
        #expect(policy.refusal(from: .client(.presentationPolicy), frames: update + [[], [], []]) == nil)
        #expect(policy.refusal(from: .client(.presentationPolicy), frames: update + [[], [], [], []]) == .tooManyFrames)
        #expect(policy.refusal(from: .anonymous, frames: message("roster.snapshot", service: "roster")) == nil)
        #expect(policy.refusal(from: .anonymous, frames: message("device.shake", service: "gateway")) == nil)
    }

    @Test func subscriptionsArePrefixesOfTheVocabularyNoLongerThanItsLongestTopic() {
        for role in Role.allCases {
            #expect(policy.acceptsSubscription("", from: .client(role)))
            #expect(policy.acceptsSubscription("device.", from: .client(role)))
            #expect(policy.acceptsSubscription("roster.monster.updated", from: .client(role)))
        }
        #expect(!policy.acceptsSubscription("roster.monster.updated.x", from: .client(.gateway)))
        #expect(!policy.acceptsSubscription("bench.", from: .client(.gateway)))
        #expect(policy.acceptsSubscription("bench.", from: .anonymous))
        #expect(!policy.acceptsSubscription(String(repeating: "a", count: 100), from: .anonymous))
        // In plaintext only the length counts: the longest topic is accepted, a byte more is not.
        let longest = policy.longestTopic
        let atLongest = policy.acceptsSubscription(String(repeating: "a", count: longest), from: .anonymous)
        let pastLongest = policy.acceptsSubscription(String(repeating: "a", count: longest + 1), from: .anonymous)
        #expect(atLongest && !pastLongest, "\(longest) bytes: \(atLongest), \(longest + 1): \(pastLongest)")
        #expect(!policy.acceptsSubscription(String(repeating: "a", count: 200_000), from: .client(.gateway)))
        #expect(!policy.acceptsSubscription("sys.", from: .revoked))
        #expect(policy.distinctSubscriptions < 1_000)
    }

    @Test func permissionsGoByTheTypePartOfAKeyedTopic() {
        let gateway = BusPolicy.Sender.client(.gateway)
        var tap = message("device.tap", service: "gateway")
        tap[0] = Array("device.tap/3f".utf8)
        #expect(policy.refusal(from: gateway, frames: tap) == nil)
        var ack = message("ack", service: "gateway")
        ack[0] = Array("ack/0123456789abcdef".utf8)
        #expect(policy.refusal(from: gateway, frames: ack) == .forbiddenTopic)
        var answer = message("ack", service: "presentation-policy")
        answer[0] = Array("ack/0123456789abcdef".utf8)
        #expect(policy.refusal(from: .client(.presentationPolicy), frames: answer) == nil)
    }

    @Test func keyedSubscriptionsAreATypeAndAKeyOfUpTo72BytesWithoutControlCharacters() {
        let gateway = BusPolicy.Sender.client(.gateway)
        #expect(policy.acceptsSubscription("ack/0123456789abcdef", from: gateway))
        #expect(policy.acceptsSubscription("device.tap/3f", from: .client(.presentationPolicy)))
        // The longest key: a presentation's style, `/` and an address of 64 bytes.
        #expect(BusPolicy.longestKey == "popover/".utf8.count + 64)
        #expect(policy.acceptsSubscription("presentation.dismissed/popover/" + String(repeating: "k", count: 64), from: gateway))
        #expect(policy.acceptsSubscription("roster.monster.updated/" + String(repeating: "k", count: 72), from: gateway))
        #expect(policy.acceptsSubscription("ack/", from: gateway))
        #expect(!policy.acceptsSubscription("roster.monster.updated/" + String(repeating: "k", count: 73), from: gateway))
        #expect(!policy.acceptsSubscription("presentation.dismissed/popover/" + String(repeating: "k", count: 65), from: gateway))
        #expect(!policy.acceptsSubscription("ack/a\u{1}b", from: gateway))
        #expect(!policy.acceptsSubscription("ack/a\u{7f}", from: gateway))
        #expect(!policy.acceptsSubscription("ac/0123", from: gateway))
        #expect(!policy.acceptsSubscription("device./3f", from: gateway))
        #expect(!policy.acceptsSubscription("bench/x", from: gateway))
        #expect(policy.longestTopic + 1 < 1024, "a subscription fits the subscriber frame limit of 1 KiB")
    }

    @Test func theAllowListReadsRolesAndLeavesOutUnknownOnes() throws {
        let folder = try TemporaryFolder()
        let roster = try Certificate.generate(metadata: ["role": "roster"])
        let plain = try Certificate.generate()
        let odd = try Certificate.generate(metadata: ["role": "admin"])
        try roster.publicCertificate.save(in: folder.path, name: "roster")
        try plain.publicCertificate.save(in: folder.path, name: "pyzmq")
        try odd.publicCertificate.save(in: folder.path, name: "odd")
        let (list, warnings) = try AllowList.load(folder: folder.path)
        #expect(list.role(of: roster.publicKey) == .roster)
        #expect(list.role(of: plain.publicKey) == .gateway)
        #expect(list.role(of: odd.publicKey) == nil)
        #expect(warnings.contains { $0.contains("odd.key") && $0.contains("admin") })
        try plain.publicCertificate.save(in: folder.path, name: "roster-old")
        try Certificate.generate().publicCertificate.save(in: folder.path, name: "input-handling")
        #expect(try AllowList.load(folder: folder.path).warnings.contains { $0.contains("input-handling.key has no role") })
    }
}

extension BusPolicy {
    /// The refusal of `frames` from `sender`, if it is refused.
    func refusal(from sender: Sender, frames: [[UInt8]]) -> Refusal? {
        if case .refuse(let refusal, _) = route(from: sender, frames: frames) { return refusal }
        return nil
    }

    /// The topic `frames` from `sender` are forwarded on (nil: refused).
    func topic(from sender: Sender = .anonymous, frames: [[UInt8]]) -> String? {
        switch route(from: sender, frames: frames) {
        case .forward(let topic): String(decoding: topic ?? frames[0], as: UTF8.self)
        case .refuse: nil
        }
    }
}
