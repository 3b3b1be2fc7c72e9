
/// Encodes `Encodable` values straight into JSON bytes, without an intermediate tree: each
/// container writes as it goes and is closed when the value's `encode(to:)` returns. Keys are
/// written in the order the type encodes them. Used by `EnvelopeCodec`; checked against
/// Foundation's `JSONEncoder` by the tests and the fuzzer.
struct FastJSONEncoder {
    /// The JSON of `value`.
    static func encode<T: Encodable>(_ value: T, capacity: Int = 512) throws -> [UInt8] {
        let writer = JSONWriter(capacity: capacity)
        try EncodingNode.encode(value, into: writer, path: .root)
        return writer.bytes
    }
}

/// The state of one value being encoded: which bracket it opened, whether it has elements yet.
final class EncodingNode: Encoder {
    let writer: JSONWriter
    let path: CodingPath
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    /// The closing bracket owed, once a container is opened.
    @exclusivity(unchecked) var closing: UInt8 = 0
    @exclusivity(unchecked) var hasElements = false
    @exclusivity(unchecked) var wroteValue = false

    init(writer: JSONWriter, path: CodingPath) {
        self.writer = writer
        self.path = path
    }

    /// Writes `value`: scalars directly (compared by metatype, which costs far less than a
    /// dynamic cast), anything else through its `encode(to:)`.
    static func encode<T: Encodable>(_ value: T, into writer: JSONWriter, path: @autoclosure () -> CodingPath) throws {
        if T.self == String.self {
            writer.writeString(unsafeBitCast(value, to: String.self))
        } else if T.self == Double.self {
            try writer.writeDouble(unsafeBitCast(value, to: Double.self), at: path())
        } else if T.self == Int.self {
            writer.writeInteger(unsafeBitCast(value, to: Int.self))
        } else if T.self == UInt64.self {
            writer.writeInteger(unsafeBitCast(value, to: UInt64.self))
        } else if T.self == Bool.self {
            writer.write(unsafeBitCast(value, to: Bool.self) ? "true" : "false")
        } else if T.self == Int32.self {
            writer.writeInteger(unsafeBitCast(value, to: Int32.self))
        } else if T.self == Int64.self {
            writer.writeInteger(unsafeBitCast(value, to: Int64.self))
        } else {
            let node = EncodingNode(writer: writer, path: path())
            try value.encode(to: node)
            node.finish()
        }
    }

    /// Closes the container this value opened (or writes `{}` if it wrote nothing at all).
    func finish() {
        if closing != 0 {
            writer.write(closing)
        } else if !wroteValue {
            writer.write("{}")
        }
    }

    /// Opens `open` unless a container is already open (a type may ask twice).
    private func open(_ open: UInt8, _ close: UInt8) {
        guard closing == 0 else { return }
        writer.write(open)
        closing = close
        wroteValue = true
    }

    /// Writes the comma between elements.
    @inline(__always) func separate() {
        if hasElements { writer.write(UInt8(ascii: ",")) }
        hasElements = true
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        open(UInt8(ascii: "{"), UInt8(ascii: "}"))
        return KeyedEncodingContainer(KeyedWriter<Key>(node: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        open(UInt8(ascii: "["), UInt8(ascii: "]"))
        return UnkeyedWriter(node: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        wroteValue = true
        return SingleValueWriter(node: self)
    }
}

/// Writes `"key":value` pairs.
struct KeyedWriter<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }

    private func key(_ key: Key) {
        node.separate()
        node.writer.writeString(key.stringValue)
        node.writer.write(UInt8(ascii: ":"))
    }

    mutating func encodeNil(forKey key: Key) throws {
        self.key(key)
        node.writer.write("null")
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        self.key(key)
        try EncodingNode.encode(value, into: node.writer, path: node.path.appending(key))
    }

    // The scalars synthesized `encode(to:)` calls most, written without generic dispatch.
    mutating func encode(_ value: String, forKey key: Key) throws {
        self.key(key)
        node.writer.writeString(value)
    }

    mutating func encode(_ value: Double, forKey key: Key) throws {
        self.key(key)
        try node.writer.writeDouble(value, at: node.path.appending(key))
    }

    mutating func encode(_ value: Int, forKey key: Key) throws {
        self.key(key)
        node.writer.writeInteger(value)
    }

    mutating func encode(_ value: Int32, forKey key: Key) throws {
        self.key(key)
        node.writer.writeInteger(value)
    }

    mutating func encode(_ value: UInt64, forKey key: Key) throws {
        self.key(key)
        node.writer.writeInteger(value)
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws {
        self.key(key)
        node.writer.write(value ? "true" : "false")
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("FastJSONEncoder does not support nested containers")
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        preconditionFailure("FastJSONEncoder does not support nested containers")
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("FastJSONEncoder does not support superEncoder") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { preconditionFailure("FastJSONEncoder does not support superEncoder") }
}

/// Writes array elements.
struct UnkeyedWriter: UnkeyedEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }
    private(set) var count = 0

    init(node: EncodingNode) { self.node = node }

    mutating func encodeNil() throws {
        node.separate()
        node.writer.write("null")
        count += 1
    }

    mutating func encode(_ value: String) throws {
        node.separate()
        node.writer.writeString(value)
        count += 1
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.separate()
        let index = count
        try EncodingNode.encode(value, into: node.writer, path: node.path.appending(IndexKey(index)))
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        preconditionFailure("FastJSONEncoder does not support nested containers")
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        preconditionFailure("FastJSONEncoder does not support nested containers")
    }

    mutating func superEncoder() -> any Encoder { preconditionFailure("FastJSONEncoder does not support superEncoder") }
}

/// Writes one scalar (or delegates to the value's own encoding).
struct SingleValueWriter: SingleValueEncodingContainer {
    let node: EncodingNode
    var codingPath: [any CodingKey] { node.codingPath }

    mutating func encodeNil() throws { node.writer.write("null") }

    mutating func encode(_ value: String) throws { node.writer.writeString(value) }

    mutating func encode(_ value: UInt64) throws { node.writer.writeInteger(value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try EncodingNode.encode(value, into: node.writer, path: node.path)
    }

    // Every other scalar, so that none goes round through the generic path.
    mutating func encode(_ value: Bool) throws { node.writer.write(value ? "true" : "false") }
    mutating func encode(_ value: Double) throws { try node.writer.writeDouble(value, at: node.path) }
    mutating func encode(_ value: Float) throws {
        guard value.isFinite else { throw JSONWriter.nonFinite(Double(value), at: node.path) }
        node.writer.writeRaw(value.description)
    }
    mutating func encode(_ value: Int) throws { node.writer.writeInteger(value) }
    mutating func encode(_ value: Int8) throws { node.writer.writeInteger(value) }
    mutating func encode(_ value: Int16) throws { node.writer.writeInteger(value) }
    mutating func encode(_ value: Int32) throws { node.writer.writeInteger(value) }
    mutating func encode(_ value: Int64) throws { node.writer.writeInteger(value) }
    mutating func encode(_ value: UInt) throws { node.writer.writeInteger(value) }
    mutating func encode(_ value: UInt8) throws { node.writer.writeInteger(value) }
    mutating func encode(_ value: UInt16) throws { node.writer.writeInteger(value) }
    mutating func encode(_ value: UInt32) throws { node.writer.writeInteger(value) }
}

/// An array index as a coding key, for coding paths.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}
