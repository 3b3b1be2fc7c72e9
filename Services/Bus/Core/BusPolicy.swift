import Domain
import Glibc
import Wire

/// The bus's decisions on each message and subscription, from the `Permissions` table: pure,
/// no sockets. The proxy loop asks it with the bytes it received and the sender's role.
public struct BusPolicy: Sendable {
    /// Who sent a message, as the bus knows it.
    public enum Sender: Sendable, Equatable {
        /// A client whose certificate (or the bus itself) gives it `role`.
        case client(Role)
        /// No identity: the bus runs in plaintext; every client may do what any role may, as before roles existed.
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

    /// Most frames a message may have (the protocol's messages have two).
    public static let maximumFrames = 4

    /// The longest type of the vocabulary.
    public let longestType: Int
    /// The longest subscription accepted: the longest type, `/` and the longest key.
    public var longestTopic: Int { longestType + 1 + Self.longestKey }
    /// The longest key of a topic (`Topic`): a `replyTo` address has at most 64 bytes, after a
    /// presentation's style and `/` (`Topic.styledKey`).
    public static let longestKey = 64 + 1 + PresentationStyle.allCases.map(\.rawValue.utf8.count).max()!
    /// The `.byDevice` types of the vocabulary (the bus keys their topics by the device's bucket,
    /// and by the owner of the body's element for `Routing.ownedByElement`).
    private let byDevice: [(bytes: [UInt8], type: MessageType, ownedByElement: Bool)]
    /// The length and first eight bytes (`head(of:)`) of each of `byDevice`'s types, in the same
    /// order: compared first, without touching (and retaining) the types' arrays.
    private let byDeviceHeads: [(count: Int, head: UInt64)]
    /// The `Topic.styled` types of the vocabulary (the bus keys their topics by the style of
    /// the presentation in their body, and the `replyTo` of their header).
    private let styled: [(bytes: [UInt8], type: MessageType)]
    /// Each presentation style's name.
    private let styleNames: [(bytes: [UInt8], style: PresentationStyle)]
    /// The length and bytes (`head(of:)`) of each presentation style's name of up to eight bytes:
    /// what `keepsWrittenTopic` compares a written style with, nothing retained.
    private let styleHeads: [(count: Int, head: UInt64)]
    /// Every type of the vocabulary.
    private let types: Set<[UInt8]>
    /// Every prefix of every topic of the vocabulary (what a subscription may be).
    private let prefixes: Set<[UInt8]>
    /// The `service` names of the components, which clients may not use.
    private let componentNames: [[UInt8]]
    /// Every type of the vocabulary (the first of a repeated one) with what `lookUp(_:)` answers
    /// for it, ordered by length: those of length `n` are `entries[entryStarts[n]..<entryStarts[n + 1]]`.
    /// (Set once, in `init`, which completes each type's answers with the policy's own look-ups.)
    private var entries: [(words: (UInt64, UInt64, UInt64), bytes: [UInt8], type: TopicType)]
    /// Where each length's entries start (`entries`), up to the longest type and one past it.
    private let entryStarts: [Int]
    /// The owner of each `Routing.ownedByElement` type of the vocabulary on each element the
    /// product names (`ElementName`, `InputElement.weaponPickerButtons`) of up to 16 bytes,
    /// without and with a point, as `Routing.owner(of:element:point:)` gives them — worked out
    /// once, so that a tap's owner is found by its element's bytes (`knownOwner`), ordered by
    /// length as `entries` are (`ownerStarts`).
    private let owners: [(type: MessageType, words: (UInt64, UInt64), owner: Int8, withPoint: Int8)]
    /// Where each length's `owners` start, up to 16 and one past it.
    private let ownerStarts: [Int]
    /// The owners `owners` name, by index (-1: none).
    private let ownerNames: [String]
    /// The UTF-8 of `ownerNames`, one after the other, and where each one is in it (by the same
    /// index): what `keepsWrittenTopic` compares a written owner with, nothing made or retained.
    private let ownerText: [UInt8]
    private let ownerSpans: [(start: Int, count: Int)]

    /// A topic frame's type part (the bytes before its first `/`) as the policy sees it, looked
    /// up once per message (`lookUp(_:)`) for every decision on it.
    public struct TopicType: Sendable {
        /// How many bytes the type part has.
        public let length: Int
        /// The roles that may publish it, as bits (`bit(_:)`); nil when it is not in this build's
        /// vocabulary (`mayPublish` then asks `Permissions`).
        fileprivate let roles: UInt8?
        /// Its `.byDevice` type, and whether its owner depends on its body (`Routing.ownedByElement`),
        /// if it is one — or if it only starts with one of those (`deviceType(of:)`).
        public let device: (type: MessageType, ownedByElement: Bool)?
        /// Its `Topic.styled` type, if it is one.
        public let styled: MessageType?
    }

    /// The policy of `Permissions` over the vocabulary `topics` (every `MessageType` by default).
    public init(topics: [String] = MessageType.allCases.map(\.rawValue)) {
        // Every topic of the vocabulary with the roles that may publish it, as bit masks.
        let known = topics.map { (Array($0.utf8), Self.mask(Permissions.publishers(of: $0))) }
        longestType = topics.map(\.utf8.count).max() ?? 0
        byDevice = topics.compactMap { MessageType(rawValue: $0) }.filter { $0.addressing == .byDevice }
            .map { (Array($0.rawValue.utf8), $0, Routing.ownedByElement.contains($0)) }
        byDeviceHeads = byDevice.map { entry in (entry.bytes.count, entry.bytes.withUnsafeBytes { Self.head(of: $0) }) }
        styled = topics.compactMap { MessageType(rawValue: $0) }.filter(Topic.styled.contains).map { (Array($0.rawValue.utf8), $0) }
        styleNames = PresentationStyle.allCases.map { (Array($0.rawValue.utf8), $0) }
        styleHeads = styleNames.filter { $0.bytes.count <= 8 }.map { name in (name.bytes.count, name.bytes.withUnsafeBytes { Self.head(of: $0) }) }
        types = Set(topics.map { Array($0.utf8) })
        var prefixes: Set<[UInt8]> = []
        for topic in topics {
            let bytes = Array(topic.utf8)
            for end in 0...bytes.count { prefixes.insert(Array(bytes[..<end])) }
        }
        self.prefixes = prefixes
        componentNames = Role.allCases.filter(\.isComponent).map { Array($0.rawValue.utf8) }
        // Each type's answers, worked out once by the look-ups a topic not in the vocabulary gets.
        var seen: Set<[UInt8]> = []
        var entries: [(words: (UInt64, UInt64, UInt64), bytes: [UInt8], type: TopicType)] = []
        for (bytes, roles) in known where seen.insert(bytes).inserted && !bytes.contains(Topic.separator) {
            let words = bytes.withUnsafeBytes { (Self.word(0, of: $0), Self.word(1, of: $0), Self.word(2, of: $0)) }
            entries.append((words, bytes, TopicType(length: bytes.count, roles: roles, device: nil, styled: nil)))
        }
        entries.sort { $0.bytes.count < $1.bytes.count }
        var entryStarts = [Int](repeating: entries.count, count: longestType + 2)
        for (index, entry) in entries.enumerated().reversed() { entryStarts[entry.bytes.count] = index }
        for length in stride(from: longestType, through: 0, by: -1) { entryStarts[length] = min(entryStarts[length], entryStarts[length + 1]) }
        self.entries = entries
        self.entryStarts = entryStarts
        let names = Set(ElementName.allCases.map(\.rawValue) + InputElement.weaponPickerButtons).filter { $0.utf8.count <= 16 }
        var owners: [(length: Int, type: MessageType, words: (UInt64, UInt64), owner: String?, withPoint: String?)] = []
        for (_, type, ownedByElement) in byDevice where ownedByElement {
            for name in names.sorted() {
                let words = Array(name.utf8).withUnsafeBytes { (Self.word(0, of: $0), Self.word(1, of: $0)) }
                owners.append((name.utf8.count, type, words, Routing.owner(of: type, element: name, point: false),
                               Routing.owner(of: type, element: name, point: true)))
            }
        }
        owners.sort { $0.length < $1.length }
        var ownerStarts = [Int](repeating: owners.count, count: 18)
        for (index, entry) in owners.enumerated().reversed() { ownerStarts[entry.length] = index }
        for length in stride(from: 16, through: 0, by: -1) { ownerStarts[length] = min(ownerStarts[length], ownerStarts[length + 1]) }
        let ownerNames = Array(Set(owners.flatMap { [$0.owner, $0.withPoint] }.compactMap { $0 })).sorted()
        self.owners = owners.map { entry in
            func index(_ owner: String?) -> Int8 { owner.map { Int8(ownerNames.firstIndex(of: $0)!) } ?? -1 }
            return (entry.type, entry.words, index(entry.owner), index(entry.withPoint))
        }
        self.ownerStarts = ownerStarts
        self.ownerNames = ownerNames
        ownerText = ownerNames.flatMap(\.utf8)
        var ownerStart = 0
        ownerSpans = ownerNames.map { name in
            defer { ownerStart += name.utf8.count }
            return (ownerStart, name.utf8.count)
        }
        for index in entries.indices {
            let bytes = entries[index].bytes
            let type = bytes.withUnsafeBytes { ($0.count, deviceType(of: $0), styledType(of: $0)) }
            self.entries[index].type = TopicType(length: type.0, roles: entries[index].type.roles, device: type.1, styled: type.2)
        }
    }

    /// The type part of topic frame `topic` looked up in the vocabulary: its length, who may
    /// publish it and how its topic is keyed. A type of the vocabulary is found by its length and
    /// up to three eight-byte words (`word(_:of:)`), nothing compared byte by byte for types of up
    /// to 24 bytes; anything else gets what `mayPublish`, `deviceType(of:)` and `styledType(of:)`
    /// find for it.
    public func lookUp(_ topic: UnsafeRawBufferPointer) -> TopicType {
        let base = topic.baseAddress
        let length = base.flatMap { base in memchr(base, Int32(Topic.separator), topic.count).map { base.distance(to: UnsafeRawPointer($0)) } } ?? topic.count
        if length <= longestType {
            let words = (Self.word(0, of: topic, length: length), Self.word(1, of: topic, length: length), Self.word(2, of: topic, length: length))
            for index in entryStarts[length]..<entryStarts[length + 1] {
                let entry = entries[index].words
                guard entry.0 == words.0, entry.1 == words.1, entry.2 == words.2 else { continue }
                if length <= 24 || entries[index].bytes.withUnsafeBytes({ memcmp($0.baseAddress! + 24, base! + 24, length - 24) == 0 }) {
                    return entries[index].type
                }
            }
        }
        return TopicType(length: length, roles: nil, device: deviceType(of: topic), styled: styledType(of: topic))
    }

    /// Bytes `8 * index ..< 8 * index + 8` of the first `length` bytes of `bytes` (all of them by
    /// default) as an integer, the first in the lowest byte, zero where they end.
    @inline(__always)
    private static func word(_ index: Int, of bytes: UnsafeRawBufferPointer, length: Int? = nil) -> UInt64 {
        let length = length ?? bytes.count
        let start = 8 * index
        guard start < length else { return 0 }
        if start + 8 <= bytes.count {
            return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt64.self)) & headMask(length - start)
        }
        return head(of: UnsafeRawBufferPointer(rebasing: bytes[start..<length]))
    }

    /// How many distinct subscriptions a connection can hold: one per prefix of the vocabulary.
    public var distinctSubscriptions: Int { prefixes.count }

    private static func mask(_ roles: Set<Role>) -> UInt8 {
        roles.reduce(0) { $0 | bit($1) }
    }

    private static func bit(_ role: Role) -> UInt8 {
        1 << UInt8(Role.allCases.firstIndex(of: role)!)
    }

    /// Whether `role` may publish `topic`, by its type part (before any `/key`); `type` is its
    /// `lookUp(_:)`, when the caller has it.
    public func mayPublish(_ role: Role, topic whole: UnsafeRawBufferPointer, type: TopicType? = nil) -> Bool {
        let type = type ?? lookUp(whole)
        if let roles = type.roles { return roles & Self.bit(role) != 0 }
        // Not in this build's vocabulary (a newer peer's type, or junk): nobody publishes it.
        let topic = UnsafeRawBufferPointer(rebasing: whole[..<type.length])
        return Permissions.publishers(of: String(decoding: topic, as: UTF8.self)).contains(role)
    }

    /// The refusal of a message from `sender` with topic frame `topic`, `frames` frames and,
    /// when its JSON could be read, its header `peek` (`json` its bytes); `nil` to forward it.
    /// A message whose JSON the bus cannot read is forwarded if its topic is allowed: the
    /// services answer it, and nobody can be misled by what nobody can decode.
    /// `type` is the topic's `lookUp(_:)`, when the caller has it.
    public func refusal(
        from sender: Sender, topic: UnsafeRawBufferPointer, frames: Int, peek: EnvelopePeek?, json: UnsafeRawBufferPointer,
        type: TopicType? = nil
    ) -> Refusal? {
        guard frames <= Self.maximumFrames else { return .tooManyFrames }
        let role: Role
        switch sender {
        case .anonymous: return nil
        case .revoked: return .revoked
        case .client(let client): role = client
        }
        guard mayPublish(role, topic: topic, type: type) else { return .forbiddenTopic }
        guard let peek else { return nil }
        if peek.escaped { return .forgedService }
        guard let range = peek.service else { return nil }
        let service = UnsafeRawBufferPointer(rebasing: json[range])
        if role.isComponent {
            return role.rawValue.utf8.elementsEqual(service) ? nil : .forgedService
        }
        return componentNames.contains { $0.elementsEqual(service) } ? .forgedService : nil
    }

    /// The header fields the bus must read to forward a message from `sender` with topic frame
    /// `topic`: its `service` when the sender has a role (a component must send as itself, a
    /// client not as a component), its `device` when its type is `.byDevice` (the bucket of its
    /// topic) and, for a type whose owner depends on its body (`Routing.ownedByElement`), the
    /// body's `element` and `point`. Empty (plaintext, any other addressing): its JSON need not
    /// be read at all (a presentation's style is read apart: `deviceTopic`). `type` is the
    /// topic's `lookUp(_:)`, when the caller has it.
    public func headerFields(from sender: Sender, topic: UnsafeRawBufferPointer, type: TopicType? = nil) -> EnvelopePeek.Fields {
        var fields: EnvelopePeek.Fields = []
        if case .client = sender { fields.insert(.service) }
        if let entry = (type ?? lookUp(topic)).device {
            fields.insert(.device)
            if entry.ownedByElement { fields.insert(.element) }
        }
        return fields
    }

    /// The `Topic.styled` type of topic frame `topic` (by its type part), if it is one: its
    /// length and separator checked first (worked out as `deviceType(of:)` is).
    private func styledType(of topic: UnsafeRawBufferPointer) -> MessageType? {
        for entry in styled where topic.count >= entry.bytes.count {
            let length = entry.bytes.count
            guard topic.count == length || topic[length] == Topic.separator else { continue }
            if entry.bytes.elementsEqual(UnsafeRawBufferPointer(rebasing: topic[..<length])) { return entry.type }
        }
        return nil
    }

    /// The `.byDevice` type of topic frame `topic` (by its type part), if it is one; also the
    /// type of `Routing.ownedByElement` a topic merely starts with (`device.tap one frame`): no
    /// service subscribes to such a topic (each owner to its own `type/OWNER`), so the bus gives
    /// it its owner's, where it is refused as ever.
    /// Worked out once for each type of the vocabulary (`lookUp(_:)`), and for a topic outside it:
    /// one pass over the few entries, each compared by its length and first eight bytes, and in
    /// full (`memcmp`) only when those match.
    private func deviceType(of topic: UnsafeRawBufferPointer) -> (type: MessageType, ownedByElement: Bool)? {
        guard let base = topic.baseAddress else { return nil }
        let typeLength = memchr(base, Int32(Topic.separator), topic.count).map { base.distance(to: UnsafeRawPointer($0)) } ?? topic.count
        let head = Self.head(of: UnsafeRawBufferPointer(start: base, count: typeLength))
        var prefixOf: (type: MessageType, ownedByElement: Bool)?
        for index in byDeviceHeads.indices {
            let (count, entryHead) = byDeviceHeads[index]
            guard count <= typeLength, head & Self.headMask(count) == entryHead else { continue }
            let entry = byDevice[index]
            if count > 8 {
                guard entry.bytes.withUnsafeBytes({ memcmp($0.baseAddress! + 8, base + 8, count - 8) == 0 }) else { continue }
            }
            if count == typeLength { return (entry.type, entry.ownedByElement) }
            if entry.ownedByElement, prefixOf == nil { prefixOf = (entry.type, entry.ownedByElement) }
        }
        return prefixOf
    }

    /// The owner of a message of `type` (one of `Routing.ownedByElement`) on the element whose
    /// bytes are `element` (inside `json`, where the words compared may be read), with or without
    /// a `point`, when the element is one of `owners` (`.some`, itself nil when `Routing` names
    /// none); nil for any other element (`Routing` is then asked).
    private func knownOwner(
        of type: MessageType, element: UnsafeRawBufferPointer, json: UnsafeRawBufferPointer, point: Bool
    ) -> String?? {
        knownOwnerIndex(of: type, element: element, json: json, point: point).map { $0 < 0 ? nil : ownerNames[Int($0)] }
    }

    /// `knownOwner`'s answer as an index of `ownerNames` (-1: `Routing` names none); nil for an
    /// element not in `owners`.
    private func knownOwnerIndex(
        of type: MessageType, element: UnsafeRawBufferPointer, json: UnsafeRawBufferPointer, point: Bool
    ) -> Int8? {
        let length = element.count
        guard length < ownerStarts.count - 1 else { return nil }
        let rest = UnsafeRawBufferPointer(rebasing: json[(element.baseAddress! - json.baseAddress!)...])
        let words = (Self.word(0, of: rest, length: length), Self.word(1, of: rest, length: length))
        for index in ownerStarts[length]..<ownerStarts[length + 1] {
            let entry = owners[index]
            guard entry.type == type, entry.words.0 == words.0, entry.words.1 == words.1 else { continue }
            return point ? entry.withPoint : entry.owner
        }
        return nil
    }

    /// The first (up to) eight bytes of `bytes` as an integer, the first in the lowest byte, zero
    /// where `bytes` is shorter.
    private static func head(of bytes: UnsafeRawBufferPointer) -> UInt64 {
        let count = bytes.count
        if count >= 8 { return UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)) }
        if count >= 4 {
            // Two loads of four bytes, overlapping (a byte read twice lands on the same bits).
            let low = UInt64(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            return low | high << (8 * UInt64(count - 4))
        }
        var head: UInt64 = 0
        for offset in 0..<count { head |= UInt64(bytes[offset]) << (8 * UInt64(offset)) }
        return head
    }

    /// The bits of `head(of:)` that the first `count` bytes fill.
    @inline(__always)
    private static func headMask(_ count: Int) -> UInt64 {
        count >= 8 ? ~0 : (1 << (8 * UInt64(count))) &- 1
    }

    /// The bus's judgement of a message from `sender` (`topic` its topic frame, `frames` its
    /// frame count, `json` its second frame, nil without one): the refusal (`nil`: forward it)
    /// and the header read. It reads the header only as far as `headerFields` need
    /// (`EnvelopePeek(_:upTo:)`: it stops once their first values are found, which the
    /// decoders take too); a refusal, rare, is judged again on the whole object, exactly as
    /// `refusal(from:topic:frames:peek:json:)` always judged it — so JSON that turns out
    /// unreadable after the header is still left to the services — and its header then has every
    /// field the refusal's answer names.
    /// `type` is the topic's `lookUp(_:)`, when the caller has it.
    public func judge(
        from sender: Sender, topic: UnsafeRawBufferPointer, frames: Int, json: UnsafeRawBufferPointer?, type: TopicType? = nil
    ) -> (refusal: Refusal?, peek: EnvelopePeek?) {
        let type = type ?? lookUp(topic)
        let body = json ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let fields = headerFields(from: sender, topic: topic, type: type)
        let peek = fields.isEmpty ? nil : json.flatMap { EnvelopePeek($0, upTo: fields) }
        guard refusal(from: sender, topic: topic, frames: frames, peek: peek, json: body, type: type) != nil else { return (nil, peek) }
        let whole = json.flatMap { EnvelopePeek($0) }
        return (refusal(from: sender, topic: topic, frames: frames, peek: whole, json: body, type: type), whole)
    }

    /// The refusal of a message (for tests and the slow path): as above, from byte arrays.
    public func refusal(from sender: Sender, frames: [[UInt8]]) -> Refusal? {
        let topic = frames.first ?? []
        let json = frames.count > 1 ? frames[1] : []
        return topic.withUnsafeBytes { topicBytes in
            json.withUnsafeBytes { jsonBytes in
                refusal(from: sender, topic: topicBytes, frames: frames.count, peek: frames.count > 1 ? EnvelopePeek(jsonBytes) : nil, json: jsonBytes)
            }
        }
    }

    /// The topic a message with topic frame `topic` is forwarded on when it is not that one: a
    /// `.byDevice` type's goes to `type/KEY`, whatever its sender wrote, KEY being the bucket of
    /// its `device` (`Topic.bucket(ofDevice:)`) and, for a type whose owner depends on its body
    /// (`Routing.ownedByElement`), the owner first (`Topic.deviceKey`: `OWNER/BUCKET`, or `OWNER`
    /// without a device); the bare type when it has no key. A presentation (`Topic.styled`) goes
    /// to `type/STYLE/REPLYTO` (`styledTopic`, which reads its JSON itself: `peek` is not used).
    /// Values written with escapes are read as the decoders read them. `nil`: forward it as it is.
    /// `topicType` is the topic's `lookUp(_:)`, when the caller has it.
    public func deviceTopic(
        topic: UnsafeRawBufferPointer, peek: EnvelopePeek?, json: UnsafeRawBufferPointer, type topicType: TopicType? = nil
    ) -> [UInt8]? {
        let topicType = topicType ?? lookUp(topic)
        if keepsWrittenTopic(topic: topic, peek: peek, json: json, type: topicType) { return nil }
        return rewrittenTopic(topic: topic, peek: peek, json: json, type: topicType)
    }

    /// Whether `deviceTopic` keeps `topic` as it is, told in place for a topic as ours write it:
    /// a device's request whose `device` and (for `Routing.ownedByElement`) body `element`,
    /// written without escapes, give the owner (`knownOwnerIndex`) and bucket its key already
    /// holds — the bucket hashed and compared as two digits, the owner compared as bytes, no
    /// string made; a presentation read quickly (`PresentationStyleRead`) whose key starts with
    /// the style its body names, written as it is. True only where `rewrittenTopic` answers nil
    /// (it makes the same key from the same bytes); false for anything else, which
    /// `rewrittenTopic` then reads as it always did. `type` is `topic`'s `lookUp(_:)`.
    func keepsWrittenTopic(topic: UnsafeRawBufferPointer, peek: EnvelopePeek?, json: UnsafeRawBufferPointer, type topicType: TopicType) -> Bool {
        // The type part ends at the first `/` (`lookUp`): the key is what follows it.
        let typeEnd = topicType.length
        guard typeEnd < topic.count, let topicBase = topic.baseAddress, json.baseAddress != nil else { return false }
        let key = UnsafeRawBufferPointer(start: topicBase + typeEnd + 1, count: topic.count - typeEnd - 1)
        if let (type, ownedByElement) = topicType.device {
            // Not a type part that only starts with the type (`deviceType(of:)`): that is rewritten.
            guard type.rawValue.utf8.count == typeEnd, let peek, let device = peek.device, !device.isEmpty, !peek.deviceEscaped else { return false }
            var ownerEnd = 0
            if ownedByElement {
                guard let element = peek.element, !peek.elementEscaped,
                      let owner = knownOwnerIndex(of: type, element: UnsafeRawBufferPointer(rebasing: json[element]), json: json, point: peek.point)
                else { return false }
                if owner >= 0 {
                    let (start, count) = ownerSpans[Int(owner)]
                    guard key.count == count + 3, key[count] == Topic.separator,
                          ownerText.withUnsafeBytes({ memcmp($0.baseAddress! + start, key.baseAddress!, count) }) == 0 else { return false }
                    ownerEnd = count + 1
                }
            }
            guard key.count == ownerEnd + 2 else { return false }
            // `Topic.bucket(ofDeviceBytes:)`'s two digits, compared where they are written.
            let bucket = Topic.bucketIndex(ofDeviceBytes: UnsafeRawBufferPointer(rebasing: json[device]))
            return key[ownerEnd] == Topic.hexDigit(bucket >> 4) && key[ownerEnd + 1] == Topic.hexDigit(bucket & 15)
        }
        guard topicType.styled != nil, let quick = PresentationStyleRead(json) else { return false }
        let written = UnsafeRawBufferPointer(rebasing: json[quick.style])
        let head = Self.head(of: written)
        guard styleHeads.contains(where: { $0.count == written.count && $0.head == head }),
              key.count >= written.count, written.isEmpty || memcmp(key.baseAddress!, written.baseAddress!, written.count) == 0
        else { return false }
        return key.count == written.count || key[written.count] == Topic.separator
    }

    /// `deviceTopic`'s answer read the whole way: the bucket and owner made as strings, the
    /// written key compared with them, and the topic made anew when it differs. `type` is
    /// `topic`'s `lookUp(_:)`.
    func rewrittenTopic(topic: UnsafeRawBufferPointer, peek: EnvelopePeek?, json: UnsafeRawBufferPointer, type topicType: TopicType) -> [UInt8]? {
        guard let (type, ownedByElement) = topicType.device else {
            return topicType.styled.flatMap { styledTopic($0, typeLength: topicType.length, topic: topic, json: json) }
        }
        let typeEnd = type.rawValue.utf8.count
        var bucket: String?
        if let peek, let range = peek.device, !range.isEmpty {
            if peek.deviceEscaped {
                bucket = Self.text(of: range, in: json).map(Topic.bucket(ofDevice:))
            } else {
                bucket = Topic.bucket(ofDeviceBytes: UnsafeRawBufferPointer(rebasing: json[range]))
            }
        }
        var owner: String?
        if ownedByElement, let peek, let range = peek.element, !peek.elementEscaped,
           let known = knownOwner(of: type, element: UnsafeRawBufferPointer(rebasing: json[range]), json: json, point: peek.point) {
            owner = known
        } else if ownedByElement {
            var element: String?
            if let peek, let range = peek.element {
                element = peek.elementEscaped ? Self.text(of: range, in: json) : String(decoding: UnsafeRawBufferPointer(rebasing: json[range]), as: UTF8.self)
            }
            owner = Routing.owner(of: type, element: element, point: peek?.point ?? false)
        }
        // Most senders (ours) write the right topic already: compared in place, nothing made.
        let written = UnsafeRawBufferPointer(rebasing: topic[min(typeEnd + 1, topic.endIndex)...])
        let hasKey = typeEnd < topic.endIndex
        // A topic that only starts with the type (`deviceType(of:)`) is rewritten whole.
        if !hasKey || topic[typeEnd] == Topic.separator {
            if owner == nil, bucket == nil { return hasKey ? Array(type.rawValue.utf8) : nil }
            if hasKey, Self.isDeviceKey(written, owner: owner, bucket: bucket) { return nil }
        }
        return Array(Topic.name(type, key: Topic.deviceKey(owner: owner, bucket: bucket)).utf8)
    }

    /// The topic a presentation of `type` (`Topic.styled`) with topic frame `topic` is forwarded
    /// on when its key does not start with its STYLE, read from its body (`type/STYLE` or
    /// `type/STYLE/…`: what follows, the address, the decoders check): `type/STYLE/REPLYTO`
    /// (`Topic.styledKey`; `type/STYLE` without a `replyTo` that is an address), whatever its
    /// sender wrote — so that no publisher, careless or hostile, can hide an alert from the
    /// readers of alerts only (`Routing.readsOnlyStyle`). It reads the JSON as ours are written
    /// (`PresentationStyleRead`, a few `memchr`s), else whole (`EnvelopePeek`). A style the bus
    /// cannot read (no body, no string `style`, one that is no `PresentationStyle`, a header key
    /// written with escapes) counts as `alert`: the readers of alerts decode it and judge, as
    /// they did every presentation before. `nil`: forward it as it is.
    private func styledTopic(_ type: MessageType, typeLength typeEnd: Int, topic: UnsafeRawBufferPointer, json: UnsafeRawBufferPointer) -> [UInt8]? {
        var styleRange: Range<Int>?, styleEscaped = false
        let quick = PresentationStyleRead(json)
        var peek: EnvelopePeek?
        if let quick {
            styleRange = quick.style
        } else {
            peek = json.isEmpty ? nil : EnvelopePeek(json)
            if let peek, !peek.escaped { (styleRange, styleEscaped) = (peek.style, peek.styleEscaped) }
        }
        var style = PresentationStyle.alert
        if let range = styleRange {
            if styleEscaped {
                style = Self.text(of: range, in: json).flatMap(PresentationStyle.init(rawValue:)) ?? .alert
            } else {
                let written = UnsafeRawBufferPointer(rebasing: json[range])
                style = styleNames.first { $0.bytes.count == written.count && $0.bytes.elementsEqual(written) }?.style ?? .alert
            }
        }
        // Ours write the right topic already: compared in place, nothing made.
        if topic.count > typeEnd, topic[typeEnd] == Topic.separator {
            let key = UnsafeRawBufferPointer(rebasing: topic[(typeEnd + 1)...])
            let name = styleNames.first { $0.style == style }!.bytes
            if key.count >= name.count, name.withUnsafeBytes({ memcmp(key.baseAddress!, $0.baseAddress!, $0.count) }) == 0,
               key.count == name.count || key[name.count] == Topic.separator { return nil }
        }
        // Rewritten (rare): the address from `replyTo`, read whole.
        let replyTo = (quick == nil ? peek : (json.isEmpty ? nil : EnvelopePeek(json)))?.replyTo
        let plainReplyTo = replyTo.map { !json[$0].contains(UInt8(ascii: "\\")) } ?? true
        let address = replyTo.flatMap { plainReplyTo ? String(decoding: json[$0], as: UTF8.self) : Self.text(of: $0, in: json) }
        return Array(Topic.name(type, key: Topic.styledKey(style: style.rawValue, replyTo: address.flatMap { Envelope.isAddress($0) ? $0 : nil })).utf8)
    }

    /// Whether `key` is `Topic.deviceKey(owner:bucket:)` (one of them given), as
    /// `Topic.isDeviceKey` says, compared through the strings' UTF-8 in place (no copy of either).
    private static func isDeviceKey(_ key: UnsafeRawBufferPointer, owner: String?, bucket: String?) -> Bool {
        let ownerLength = owner?.utf8.count ?? -1, bucketLength = bucket?.utf8.count ?? -1
        guard owner != nil || bucket != nil, key.count == max(ownerLength, 0) + max(bucketLength, 0) + (owner != nil && bucket != nil ? 1 : 0)
        else { return false }
        if let owner, !same(owner, UnsafeRawBufferPointer(rebasing: key[..<ownerLength])) { return false }
        guard let bucket else { return true }
        if owner != nil, key[ownerLength] != Topic.separator { return false }
        return same(bucket, UnsafeRawBufferPointer(rebasing: key[(key.count - bucketLength)...]))
    }

    /// Whether `bytes` are the UTF-8 of `text` (as long: `isDeviceKey` checked), compared with
    /// one `memcmp` where the string's bytes lie in memory as they are.
    private static func same(_ text: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { utf8 in
            utf8.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, utf8.count) == 0
        } ?? text.utf8.elementsEqual(bytes)
    }

    /// The text of the JSON string whose inside is `range` of `json`, unescaped.
    private static func text(of range: Range<Int>, in json: UnsafeRawBufferPointer) -> String? {
        JSONStringLiteral.text(ofLiteral: Array(json[(range.lowerBound - 1)..<(range.upperBound + 1)]))
    }

    /// The topic the bus forwards `frames` on when it is not their first (`deviceTopic`), read as
    /// a client's without a role: for the in-memory bus, which routes as the bus does.
    public func deviceTopic(frames: [[UInt8]]) -> [UInt8]? {
        guard let first = frames.first else { return nil }
        let second = frames.count > 1 ? frames[1] : []
        return first.withUnsafeBytes { topic in
            second.withUnsafeBytes { json in
                let type = lookUp(topic)
                let fields = headerFields(from: .anonymous, topic: topic, type: type)
                let peek = frames.count > 1 && !fields.isEmpty ? EnvelopePeek(json, upTo: fields) : nil
                return deviceTopic(topic: topic, peek: peek, json: json, type: type)
            }
        }
    }

    /// Whether a subscription to `prefix` from `sender` is accepted: a prefix of a type of the
    /// vocabulary (the empty prefix, everything, included), or a type, `/` and a key of up to
    /// `longestKey` bytes without control characters (a client's address, a device bucket), and
    /// one the sender's role may read. In plaintext (anonymous) only the length is checked, as
    /// before roles existed.
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
        guard let slash = prefix.firstIndex(of: Topic.separator),
              types.contains(Array(prefix[..<slash])) else { return false }
        let key = prefix[(slash + 1)...]
        return key.count <= Self.longestKey && !key.contains { $0 < 0x20 || $0 == 0x7f }
    }

    /// Whether a subscription to `prefix` is accepted (for tests).
    public func acceptsSubscription(_ prefix: String, from sender: Sender) -> Bool {
        Array(prefix.utf8).withUnsafeBytes { acceptsSubscription($0, from: sender) }
    }
}
