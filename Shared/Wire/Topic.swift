import Domain
import Glibc

/// How a message is addressed on the bus: its topic frame is its type, optionally followed by
/// `/` and a key, so a subscriber to the type (or any prefix of it) receives every key, and a
/// subscriber to `type/key` only that key's messages.
public enum Addressing: Sendable, Equatable {
    /// The topic is the type alone: state every interested party reads (heartbeats, roster).
    case broadcast
    /// Keyed by the device's bucket (`Topic.bucket(ofDevice:)`): requests to a service that owns
    /// devices, so a sharded instance subscribes to its buckets only.
    case byDevice
    /// Keyed by the `replyTo` address of the action that caused it: answers to the client that
    /// asked, so a client subscribes to its own address only.
    case toClient
    /// Keyed by the sending service and the instance it is for (`type/SERVICE/INSTANCE`): what
    /// one instance of a sharded service sends another (`shard.replica`), which no client hears.
    case toInstance
}

/// The topic frame's grammar, shared by every sender, receiver and the bus.
public enum Topic {
    /// The byte between a topic's type and its key.
    public static let separator = UInt8(ascii: "/")
    /// How many buckets devices are spread over (the shard unit of docs/scaling.md).
    public static let bucketCount = 256

    /// The bucket of `device`: FNV-1a (32 bits) of its UTF-8 bytes, modulo 256, as two lowercase
    /// hex digits — the same in every language (docs/asyncapi.yaml says how).
    public static func bucket(ofDevice device: String) -> String {
        var device = device
        return device.withUTF8 { bucket(ofDeviceBytes: $0) }
    }

    /// The bucket of the device id whose UTF-8 is `bytes` (`bucket(ofDevice:)`; the bus hashes
    /// the bytes of a message in place).
    @inlinable
    public static func bucket<Bytes: Sequence>(ofDeviceBytes bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bucketName(bucketIndex(ofDeviceBytes: bytes))
    }

    /// The bucket (0..<256) of the device id whose UTF-8 is `bytes`, as a number: FNV-1a (32
    /// bits) modulo 256.
    @inlinable
    public static func bucketIndex<Bytes: Sequence>(ofDeviceBytes bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes {
            hash ^= UInt32(byte)
            hash &*= 16_777_619
        }
        return Int(hash % UInt32(bucketCount))
    }

    /// The two-hex-digit name of bucket `index` (0..<256).
    public static func bucketName(_ index: Int) -> String {
        String(unsafeUninitializedCapacity: 2) { buffer in
            buffer[0] = hexDigit((index >> 4) & 15)
            buffer[1] = hexDigit(index & 15)
            return 2
        }
    }

    /// The lowercase hex digit of `digit` (0...15), as bucket names write it.
    @inlinable
    public static func hexDigit(_ digit: Int) -> UInt8 {
        digit < 10 ? UInt8(ascii: "0") + UInt8(digit) : UInt8(ascii: "a") + UInt8(digit - 10)
    }

    /// The topic `type` or `type/key`.
    public static func name(_ type: MessageType, key: String?) -> String {
        guard let key else { return type.rawValue }
        return type.rawValue + "/" + key
    }

    /// The key of a device's request: its `owner` (`Routing.ownedByElement`), `/` and its
    /// device's `bucket`, either alone when the other is missing; `nil` with neither.
    public static func deviceKey(owner: String?, bucket: String?) -> String? {
        guard let owner else { return bucket }
        return bucket.map { owner + "/" + $0 } ?? owner
    }

    /// Whether `key` is `deviceKey(owner:bucket:)` (one of them given), compared without making it.
    public static func isDeviceKey(_ key: UnsafeRawBufferPointer, owner: String?, bucket: String?) -> Bool {
        switch (owner, bucket) {
        case (nil, nil): return false
        case (let owner?, nil): return holds(key, owner, at: 0, ending: true)
        case (nil, let bucket?): return holds(key, bucket, at: 0, ending: true)
        case (let owner?, let bucket?):
            let length = owner.utf8.count
            return key.count > length && holds(key, owner, at: 0, ending: false) && key[length] == separator
                && holds(key, bucket, at: length + 1, ending: true)
        }
    }

    /// Whether `bytes` holds `part`'s UTF-8 from `start` (and ends with it, when `ending`).
    private static func holds(_ bytes: UnsafeRawBufferPointer, _ part: String, at start: Int, ending: Bool) -> Bool {
        var part = part
        return part.withUTF8 { part in
            let end = start + part.count
            guard ending ? bytes.count == end : bytes.count >= end else { return false }
            return part.isEmpty || memcmp(bytes.baseAddress! + start, part.baseAddress!, part.count) == 0
        }
    }

    /// The instance a `.toInstance` message is for (a replica's standby); `nil` for every other body.
    public static func instance(of body: Body) -> String? {
        if case .replica(let replica) = body { return replica.standby }
        return nil
    }

    /// The answers whose key starts with the style of the presentation they carry
    /// (`styledKey(style:replyTo:)`: `type/STYLE/REPLYTO`, or `type/STYLE` without `replyTo`), so
    /// that a reader of alerts only (`Routing.readsOnlyStyle`) subscribes to `type/alert` and no
    /// popover wakes it, while the asking client subscribes to both styles on its address.
    public static let styled: Set<MessageType> = [.presented, .dismissed]

    /// The style of the presentation `body` carries when its type is one of `styled`; `nil` for
    /// every other body.
    public static func style(of body: Body) -> PresentationStyle? {
        switch body {
        case .presented(let presented): presented.presentation.style
        case .dismissed(let dismissed): dismissed.presentation.style
        default: nil
        }
    }

    /// The key of a `styled` answer: its presentation's `style`, then `/` and `replyTo` when
    /// it has one.
    public static func styledKey(style: String, replyTo: String?) -> String {
        replyTo.map { style + "/" + $0 } ?? style
    }

    /// What a client with `address` subscribes to for the answers of `type` on its address
    /// (`.toClient`): `type/ADDR`, or for a `styled` type one topic per style,
    /// `type/STYLE/ADDR`; the bare type for any other addressing or without an address.
    public static func answerSubscriptions(to type: MessageType, address: String?) -> [String] {
        guard type.addressing == .toClient, let address else { return [type.rawValue] }
        guard styled.contains(type) else { return [name(type, key: address)] }
        return PresentationStyle.allCases.map { name(type, key: styledKey(style: $0.rawValue, replyTo: address)) }
    }

    /// The type part of a topic frame: the bytes before the first `/` (all of them without one).
    public static func typePart(_ topic: [UInt8]) -> ArraySlice<UInt8> {
        guard let slash = topic.firstIndex(of: separator) else { return topic[...] }
        return topic[..<slash]
    }

    /// Whether the type part of topic frame `topic` (`typePart(_:)`) is `type`'s name, compared
    /// in place (a type's name holds no `/`).
    public static func hasType(_ topic: [UInt8], _ type: MessageType) -> Bool {
        let name = type.topicFrame
        guard topic.count == name.count || (topic.count > name.count && topic[name.count] == separator) else { return false }
        return topic.withUnsafeBytes { topic in name.withUnsafeBytes { memcmp(topic.baseAddress!, $0.baseAddress!, $0.count) == 0 } }
    }

    /// The topic frame `type`, `type/first` or `type/first/second`, made in one allocation and
    /// copied in pieces: what a sender and the bus write for every message.
    public static func frame(_ type: MessageType, _ first: UnsafeRawBufferPointer?, _ second: UnsafeRawBufferPointer? = nil) -> [UInt8] {
        var memo: FrameMemo?
        return frame(type, first, second, memo: &memo)
    }

    /// `frame(_:_:_:)`, the array kept in `memo` when it holds the same bytes.
    public static func frame(_ type: MessageType, _ first: UnsafeRawBufferPointer?, _ second: UnsafeRawBufferPointer?, memo: inout FrameMemo?) -> [UInt8] {
        let name = type.topicFrame
        let count = name.count + (first.map { 1 + $0.count } ?? 0) + (second.map { 1 + $0.count } ?? 0)
        // Put together on the stack, then copied into an array made from a buffer: the array
        // initialisers that take a count (`repeating:count:`, `unsafeUninitializedCapacity:`)
        // look the array's type up at run time, at several times the cost of the copies.
        return withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { frame in
            let base = frame.baseAddress!
            name.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            append(second, to: base, at: append(first, to: base, at: name.count))
            return memo?.frame(of: UnsafeRawBufferPointer(frame)) ?? [UInt8](UnsafeRawBufferPointer(frame))
        }
    }

    /// Writes `/` and `part` at `at` of `base`, returning where they end (`at` without a part).
    @discardableResult @inline(__always)
    private static func append(_ part: UnsafeRawBufferPointer?, to base: UnsafeMutableRawPointer, at: Int) -> Int {
        guard let part else { return at }
        base.storeBytes(of: separator, toByteOffset: at, as: UInt8.self)
        if let bytes = part.baseAddress, part.count > 0 { (base + at + 1).copyMemory(from: bytes, byteCount: part.count) }
        return at + 1 + part.count
    }

    /// `frame(_:_:_:)` of parts given as text (borrowed where they lie, as native strings are).
    public static func frame(_ type: MessageType, _ first: String?, _ second: String? = nil) -> [UInt8] {
        // Without a first part the second follows the type alone.
        let parts = first == nil ? (second, nil) : (first, second)
        guard var one = parts.0 else { return type.topicFrame }
        guard var two = parts.1 else { return one.withUTF8 { frame(type, UnsafeRawBufferPointer($0)) } }
        return one.withUTF8 { one in two.withUTF8 { two in frame(type, UnsafeRawBufferPointer(one), UnsafeRawBufferPointer(two)) } }
    }
}

/// The topic frames made lately, by their bytes: a frame made again (the bus keys one device's
/// requests alike, action after action) is the array kept (a retain) rather than a new one. One
/// thread's own.
public struct FrameMemo {
    private var frames: [[UInt8]] = []
    /// The frame the next one replaces once all are taken.
    private var oldest = 0

    /// How many frames are kept.
    static let capacity = 8

    /// Nothing kept yet.
    public init() {}

    /// The kept frame whose bytes are `bytes`, else a new one, kept.
    mutating func frame(of bytes: UnsafeRawBufferPointer) -> [UInt8] {
        let kept: [UInt8]? = frames.withUnsafeBufferPointer { frames in
            for index in frames.indices where frames[index].count == bytes.count
                && frames[index].withUnsafeBytes({ bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                return frames[index]
            }
            return nil
        }
        if let kept { return kept }
        let made = [UInt8](bytes)
        if frames.count < Self.capacity {
            frames.append(made)
        } else {
            frames[oldest] = made
            oldest = (oldest + 1) % Self.capacity
        }
        return made
    }
}
