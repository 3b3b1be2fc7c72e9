import Domain
import Glibc
import JSON
import Wire

/// The bus's decisions on each message and subscription: pure, no sockets. Three tables, each a
/// value it is handed or derives once: who may publish each type (`Permissions`), how each
/// type's topic is keyed (the vocabulary's addressing), and who owns an action by what it
/// touches (`OwnerTable`). For a device's request, whose sender is a client, it reads what the
/// key needs (`EnvelopeView`) and writes the topic it is forwarded on: no client can mis-route
/// one, nor has to compute a bucket. An answer goes on the key its sender wrote: only the
/// components publish answers, and each derives the key of what it sends. Either way a key is
/// derived once per hop, and receivers trust the key they are given.
public struct BusPolicy: Sendable {
    /// Who sent a message, as the bus knows it.
    public enum Sender: Sendable, Equatable {
        /// A client whose certificate (or the bus itself) gives it `role`.
        case client(Role)
        /// No identity: the bus runs in plaintext; every client may do what any role may.
        case anonymous
        /// A key that is no longer on the allow-list (revoked; its connection is being cut).
        case revoked
    }

    /// Why a message is not forwarded.
    public enum Refusal: String, Sendable, Equatable {
        /// Its topic is not one its sender's role may publish.
        case forbiddenTopic = "forbidden-topic"
        /// Its `service` is not its sender's (a component must send as itself; a client may
        /// not send as a component).
        case forgedService = "forged-service"
        /// Its sender's key was revoked.
        case revoked = "revoked"
        /// It has more frames than any message of the protocol.
        case tooManyFrames = "too-many-frames"

        /// The `error` code the bus answers with.
        public var code: String { rawValue }
    }

    /// What the bus does with a message.
    public enum Route: Equatable {
        /// Forward it with this topic frame (`nil`: the one it came with).
        case forward(topic: [UInt8]?)
        /// Refuse it; the header members its answer names.
        case refuse(Refusal, Refused)
    }

    /// The header of a refused message, each member's bytes as written (empty when absent or
    /// over 256 bytes): what the bus's `error` answer names.
    public struct Refused: Sendable, Equatable {
        /// `id`.
        public var id: [UInt8] = []
        /// `correlationId`.
        public var correlationId: [UInt8] = []
        /// `device`.
        public var device: [UInt8] = []
        /// `service`.
        public var service: [UInt8] = []
        /// `replyTo`.
        public var replyTo: [UInt8] = []
    }

    /// Most frames a message may have, whatever its type: the most any type has (an update
    /// between sharded instances, five: `Replica`). Each type of the vocabulary is held to its
    /// own (`EnvelopeCodec.maximumFrames(of:)`), a type this build does not know to this.
    public static let maximumFrames = MessageType.allCases.map(EnvelopeCodec.maximumFrames(of:)).max()!

    /// One type of the vocabulary as the bus routes it: a class, so that looking one up for a
    /// message retains it once rather than each of its tables.
    private final class TypeEntry: Sendable {
        let type: MessageType
        /// The roles that may publish it, as bits (`bit(_:)`).
        let publishers: UInt8
        /// What its key is made of.
        let parts: EnvelopeView.Parts
        /// Most frames a message of it has.
        let maximumFrames: Int
        /// Who owns it by what it touches (`OwnerTable`), and its owners of named elements by
        /// the names' bytes, for a type whose owner depends on its body.
        let owners: (rule: OwnerTable.Rule, byElement: ByteTable<String>)?

        init(type: MessageType, publishers: UInt8, parts: EnvelopeView.Parts, owners: (rule: OwnerTable.Rule, byElement: ByteTable<String>)?) {
            self.type = type; self.publishers = publishers; self.parts = parts; self.owners = owners
            maximumFrames = EnvelopeCodec.maximumFrames(of: type)
        }
    }

    /// Every type of the vocabulary by its name.
    private let types: ByteTable<TypeEntry>
    /// Every prefix of every topic of the vocabulary (what a subscription may be).
    private let prefixes: Set<[UInt8]>
    /// The `service` names of the components, which clients may not use.
    private let componentNames: [[UInt8]]
    /// The longest type of the vocabulary.
    public let longestType: Int

    /// The longest key of a topic (`Topic`): a `replyTo` address has at most 64 bytes, after a
    /// presentation's style and `/` (`Topic.styledKey`).
    public static let longestKey = 64 + 1 + PresentationStyle.allCases.map(\.rawValue.utf8.count).max()!
    /// The longest subscription accepted: the longest type, `/` and the longest key.
    public var longestTopic: Int { longestType + 1 + Self.longestKey }

    /// The policy of `Permissions` over the vocabulary `topics` (every `MessageType` by
    /// default), with `owners` deciding who owns a tap (`Routing.owners` by default).
    public init(topics: [String] = MessageType.allCases.map(\.rawValue), owners: OwnerTable = Routing.owners) {
        types = ByteTable(topics.compactMap { name in
            MessageType(rawValue: name).map { type in
                (key: name, value: TypeEntry(
                    type: type, publishers: Self.mask(Permissions.publishers(of: type)), parts: Self.parts(of: type, owners),
                    owners: owners.rules[type].map { rule in (rule, ByteTable(rule.byElement.map { (key: $0.key, value: $0.value) })) }))
            }
        })
        longestType = topics.map(\.utf8.count).max() ?? 0
        var prefixes: Set<[UInt8]> = []
        for topic in topics {
            let bytes = Array(topic.utf8)
            for end in 0...bytes.count { prefixes.insert(Array(bytes[..<end])) }
        }
        self.prefixes = prefixes
        componentNames = Role.allCases.filter(\.isComponent).map { Array($0.rawValue.utf8) }
    }

    /// What the bus reads of a message of `type` for its topic's key: a device request's device
    /// (and for a tap, what it touches), whose senders are clients; nothing of an answer, whose
    /// key (its client's address, a presentation's style first) its sender writes — only the
    /// components publish answers (`Permissions`), and each derives the key once.
    private static func parts(of type: MessageType, _ owners: OwnerTable) -> EnvelopeView.Parts {
        switch type.addressing {
        case .broadcast: []
        case .byDevice: owners.rules[type] == nil ? .device : [.device, .element]
        case .toClient, .toInstance: []
        }
    }

    private static func mask(_ roles: Set<Role>) -> UInt8 { roles.reduce(0) { $0 | bit($1) } }

    private static func bit(_ role: Role) -> UInt8 { 1 << UInt8(Role.allCases.firstIndex(of: role)!) }

    // MARK: Messages

    /// What the bus does with a message from `sender` with topic frame `topic`, `frames` frames
    /// and, as its second, `json`. Its topic's type part (before any `/`) says who may publish
    /// it and how it is keyed; a device request's key is read from `json` and written whatever
    /// the sender wrote. A JSON the bus cannot read keys nothing it would need: the request still
    /// reaches the service its type goes to (a tap its default owner), which answers it. A type outside
    /// the vocabulary is published by no role.
    public func route(from sender: Sender, topic: UnsafeRawBufferPointer, frames: Int, json: UnsafeRawBufferPointer?) -> Route {
        var memo: FrameMemo?
        return route(from: sender, topic: topic, frames: frames, json: json, memo: &memo)
    }

    /// `route(from:topic:frames:json:)`, a topic written the same as one in `memo` (a device's
    /// requests, action after action) taken from it.
    public func route(from sender: Sender, topic: UnsafeRawBufferPointer, frames: Int, json: UnsafeRawBufferPointer?, memo: inout FrameMemo?) -> Route {
        guard frames <= Self.maximumFrames else { return .refuse(.tooManyFrames, refused(json)) }
        var role: Role?
        switch sender {
        case .anonymous: break
        case .revoked: return .refuse(.revoked, refused(json))
        case .client(let client): role = client
        }
        guard let entry = types.value(of: Self.typePart(of: topic)) else {
            // Nobody with a role publishes a type this build does not declare; in plaintext
            // anyone may send anything (the bench's raw echo among them), forwarded as it came.
            return role == nil ? .forward(topic: nil) : .refuse(.forbiddenTopic, refused(json))
        }
        if let role, entry.publishers & Self.bit(role) == 0 { return .refuse(.forbiddenTopic, refused(json)) }
        guard frames <= entry.maximumFrames else { return .refuse(.tooManyFrames, refused(json)) }
        var parts = entry.parts
        if role != nil { parts.insert(.service) }
        let view = parts.isEmpty ? nil : json.flatMap { EnvelopeView($0, parts: parts) }
        if let role, let view, let json, let service = view.service {
            let forged = service.escaped
                || (role.isComponent ? !Self.bytes(of: service, in: json).elementsEqual(role.rawValue.utf8) : componentNames.contains { Self.bytes(of: service, in: json).elementsEqual($0) })
            if forged { return .refuse(.forgedService, refused(json)) }
        }
        guard entry.type.addressing == .byDevice else { return .forward(topic: nil) }
        let written = topicFrame(entry, view: view, json: json, memo: &memo)
        let same = written.count == topic.count && written.withUnsafeBytes { memcmp($0.baseAddress!, topic.baseAddress!, topic.count) == 0 }
        return .forward(topic: same ? nil : written)
    }

    /// The topic frame of a device request of `entry`'s type whose JSON reads as `view`:
    /// `type/OWNER/BUCKET`, each part left out when the message does not give it.
    private func topicFrame(_ entry: TypeEntry, view: EnvelopeView?, json: UnsafeRawBufferPointer?, memo: inout FrameMemo?) -> [UInt8] {
        let owner = entry.owners.map { Self.owner(by: $0.rule, $0.byElement, view: view, json: json) }
        var bucket: Int?
        if let view, let json, let device = view.device, !device.range.isEmpty {
            bucket = device.escaped
                ? Topic.bucketIndex(ofDeviceBytes: Self.bytes(of: device, in: json))
                : Topic.bucketIndex(ofDeviceBytes: UnsafeRawBufferPointer(rebasing: json[device.range]))
        }
        let digits = bucket.map { (Topic.hexDigit($0 >> 4), Topic.hexDigit($0 & 15)) } ?? (0, 0)
        return withUnsafeBytes(of: digits) { two in
            let bucketBytes = bucket == nil ? nil : two
            guard var owner else { return Topic.frame(entry.type, bucketBytes, nil, memo: &memo) }
            return owner.withUTF8 { Topic.frame(entry.type, UnsafeRawBufferPointer($0), bucketBytes, memo: &memo) }
        }
    }

    /// The owner, by `rule`, of a request whose JSON reads as `view` (`OwnerTable.owner`).
    private static func owner(by rule: OwnerTable.Rule, _ byElement: ByteTable<String>, view: EnvelopeView?, json: UnsafeRawBufferPointer?) -> String {
        guard let view, let json, let element = view.element else { return view?.point == true ? rule.atPoint : rule.otherwise }
        let owner = element.escaped
            ? bytes(of: element, in: json).withUnsafeBytes { byElement.value(of: $0) }
            : byElement.value(of: UnsafeRawBufferPointer(rebasing: json[element.range]))
        return owner ?? rule.otherwise
    }

    /// The bytes of topic frame `topic` before its first `/` (all of them without one).
    private static func typePart(of topic: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        guard let base = topic.baseAddress, let slash = memchr(base, Int32(Topic.separator), topic.count) else { return topic }
        return UnsafeRawBufferPointer(start: base, count: base.distance(to: UnsafeRawPointer(slash)))
    }

    /// The text of the JSON string `key` of `json`: its bytes, unescaped when written with escapes.
    private static func bytes(of key: JSONReader.Key, in json: UnsafeRawBufferPointer) -> [UInt8] {
        let reader = JSONReader(json.assumingMemoryBound(to: UInt8.self))
        return key.escaped ? reader.unescaped(key.range) : Array(reader.bytes[key.range])
    }

    /// The header members a refusal's answer names, read from `json` whole.
    private func refused(_ json: UnsafeRawBufferPointer?) -> Refused {
        guard let json, let view = EnvelopeView(json, parts: .all) else { return Refused() }
        func member(_ key: JSONReader.Key?) -> [UInt8] {
            guard let key, key.range.count <= 256 else { return [] }
            return Self.bytes(of: key, in: json)
        }
        return Refused(
            id: member(view.id), correlationId: member(view.correlationId), device: member(view.device),
            service: member(view.service), replyTo: member(view.replyTo))
    }

    /// `route` of a message as byte arrays (for tests and the in-memory bus).
    public func route(from sender: Sender, frames: [[UInt8]]) -> Route {
        let topic = frames.first ?? []
        return topic.withUnsafeBytes { topicBytes in
            guard frames.count > 1 else { return route(from: sender, topic: topicBytes, frames: frames.count, json: nil) }
            return frames[1].withUnsafeBytes { route(from: sender, topic: topicBytes, frames: frames.count, json: $0) }
        }
    }

    /// Whether `role` may publish `topic`, by its type part (before any `/key`).
    public func mayPublish(_ role: Role, topic: String) -> Bool {
        Array(topic.utf8).withUnsafeBytes { bytes in
            types.value(of: Self.typePart(of: bytes)).map { $0.publishers & Self.bit(role) != 0 } ?? false
        }
    }

    // MARK: Subscriptions

    /// How many distinct subscriptions a connection can hold: one per prefix of the vocabulary.
    public var distinctSubscriptions: Int { prefixes.count }

    /// Whether a subscription to `prefix` from `sender` is accepted: a prefix of a type of the
    /// vocabulary (the empty prefix, everything, included), or a type, `/` and a key of up to
    /// `longestKey` bytes without control characters (a client's address, a device bucket), and
    /// one the sender's role may read. In plaintext (anonymous) only the length is checked.
    public func acceptsSubscription(_ prefix: UnsafeRawBufferPointer, from sender: Sender) -> Bool {
        guard prefix.count <= longestTopic else { return false }
        if sender == .anonymous { return true }
        guard prefixes.contains(Array(prefix)) || isKeyedTopic(prefix) else { return false }
        switch sender {
        case .anonymous: return true
        case .revoked: return false
        case .client(let role):
            return (Permissions.subscribers[role] ?? []).contains { allowed in
                prefix.count >= allowed.utf8.count && allowed.utf8.elementsEqual(prefix.prefix(allowed.utf8.count))
            }
        }
    }

    /// Whether `prefix` is `type/key`: a type of the vocabulary, then a key of at most
    /// `longestKey` bytes, none of them a control character.
    private func isKeyedTopic(_ prefix: UnsafeRawBufferPointer) -> Bool {
        let type = Self.typePart(of: prefix)
        guard type.count < prefix.count, types.value(of: type) != nil else { return false }
        let key = prefix[(type.count + 1)...]
        return key.count <= Self.longestKey && !key.contains { $0 < 0x20 || $0 == 0x7f }
    }

    /// Whether a subscription to `prefix` is accepted (for tests).
    public func acceptsSubscription(_ prefix: String, from sender: Sender) -> Bool {
        Array(prefix.utf8).withUnsafeBytes { acceptsSubscription($0, from: sender) }
    }
}
