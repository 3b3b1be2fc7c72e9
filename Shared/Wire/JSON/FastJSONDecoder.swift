
/// Decodes `Decodable` values from JSON bytes through a `JSONDocument`: members are found by
/// comparing bytes, and nothing is copied until a value is asked for. Errors are the
/// `DecodingError`s Foundation's `JSONDecoder` gives (same cases, same coding paths), so
/// `EnvelopeCodec` explains them the same way. Checked against Foundation by tests and fuzzing.
struct FastJSONDecoder {
    /// The `T` in `bytes`.
    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let document = try JSONDocument(bytes)
        return try DecodingNode(document: document, index: 0, path: .root).decodeValue(T.self)
    }
}

/// One value of a document being decoded.
struct DecodingNode: Decoder {
    let document: JSONDocument
    let index: Int
    let path: CodingPath
    var codingPath: [any CodingKey] { path.keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(document: JSONDocument, index: Int, path: CodingPath) {
        self.document = document; self.index = index; self.path = path
    }

    var node: JSONDocument.Node { document.nodes[index] }

    func mismatch<T>(_ type: T.Type, _ what: String? = nil) -> DecodingError {
        let found: String
        switch node.kind {
        case .object: found = "a dictionary"
        case .array: found = "an array"
        case .string: found = "a string"
        case .number: found = "a number"
        case .trueValue, .falseValue: found = "a boolean"
        case .null: found = "null"
        }
        return DecodingError.typeMismatch(type, DecodingError.Context(
            codingPath: codingPath, debugDescription: what ?? "Expected to decode \(type) but found \(found) instead."))
    }

    func corrupted(_ what: String) -> DecodingError {
        DecodingError.dataCorrupted(DecodingError.Context(codingPath: codingPath, debugDescription: what))
    }

    /// Decodes a `T` from this node: scalars directly (compared by metatype, far cheaper than
    /// a dynamic cast), anything else through `init(from:)`.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self { return unsafeBitCast(try decodeString(), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try decodeDouble(), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(Int(try decodeInteger(Int.self)), to: T.self) }
        if T.self == UInt64.self { return unsafeBitCast(try decodeUnsigned(), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try decodeBool(), to: T.self) }
        if T.self == Int32.self { return unsafeBitCast(try decodeFixed(Int32.self), to: T.self) }
        return try T(from: self)
    }

    func decodeString() throws -> String {
        guard node.kind == .string else { throw mismatch(String.self) }
        guard let text = document.string(at: index) else { throw corrupted("Invalid Unicode escape in string.") }
        return text
    }

    func decodeInteger<T>(_ type: T.Type) throws -> Int64 {
        guard node.kind == .number else { throw mismatch(type) }
        guard let value = document.integer(at: index) else { throw corrupted("Number does not fit in \(type).") }
        return value
    }

    /// A number that fits `type` exactly.
    func decodeFixed<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let value = T.isSigned ? T(exactly: try decodeInteger(type)) : T(exactly: try decodeUnsigned())
        guard let value else { throw corrupted("Number does not fit in \(type).") }
        return value
    }

    func decodeUnsigned() throws -> UInt64 {
        guard node.kind == .number else { throw mismatch(UInt64.self) }
        guard let value = document.unsigned(at: index) else { throw corrupted("Number does not fit in UInt64.") }
        return value
    }

    func decodeDouble() throws -> Double {
        guard node.kind == .number else { throw mismatch(Double.self) }
        guard let value = document.double(at: index) else { throw corrupted("Number is not representable as Double.") }
        return value
    }

    func decodeBool() throws -> Bool {
        switch node.kind {
        case .trueValue: return true
        case .falseValue: return false
        default: throw mismatch(Bool.self)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard node.kind == .object else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(KeyedReader<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard node.kind == .array else { throw mismatch([Any].self) }
        return UnkeyedReader(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueReader(decoder: self)
    }
}

/// Finds members of an object by key.
struct KeyedReader<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: DecodingNode
    var codingPath: [any CodingKey] { decoder.codingPath }

    /// The value node of `key` (the first one, as Foundation does, if the key is repeated), or nil.
    private func valueIndex(_ key: Key) -> Int? {
        let document = decoder.document
        let name = key.stringValue
        var position = decoder.index + 1
        for _ in 0..<decoder.node.count {
            let value = position + 1
            if document.stringEquals(position, name) { return value }
            position = document.nodes[value].next
        }
        return nil
    }

    private func child(_ key: Key) throws -> DecodingNode {
        guard let index = valueIndex(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return DecodingNode(document: decoder.document, index: index, path: decoder.path.appending(key))
    }

    var allKeys: [Key] {
        let document = decoder.document
        var keys: [Key] = []
        var position = decoder.index + 1
        for _ in 0..<decoder.node.count {
            if let name = document.string(at: position), let key = Key(stringValue: name) { keys.append(key) }
            position = document.nodes[position + 1].next
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { valueIndex(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        try child(key).node.kind == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let child = try child(key)
        if child.node.kind == .null {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: child.codingPath, debugDescription: "Expected \(type) value but found null instead."))
        }
        return try child.decodeValue(type)
    }

    // The scalars synthesized `init(from:)` asks for most, read straight from the document;
    // the slower general path runs only to build the right error.
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decode(type, forKey: key, from: .string) { decoder.document.string(at: $0) }
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decode(type, forKey: key, from: .number) { decoder.document.double(at: $0) }
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try decode(type, forKey: key, from: .number) { decoder.document.integer(at: $0).flatMap { Int(exactly: $0) } }
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decode(type, forKey: key, from: .number) { decoder.document.unsigned(at: $0) }
    }

    /// The value at `key` read by `read` when its node is of `kind`; else the general path.
    @inline(__always)
    private func decode<T: Decodable>(_ type: T.Type, forKey key: Key, from kind: JSONDocument.Kind, _ read: (Int) -> T?) throws -> T {
        if let index = valueIndex(key), decoder.document.nodes[index].kind == kind, let value = read(index) {
            return value
        }
        return try decode(generic: type, forKey: key)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        if let index = valueIndex(key) {
            switch decoder.document.nodes[index].kind {
            case .trueValue: return true
            case .falseValue: return false
            default: break
            }
        }
        return try decode(generic: type, forKey: key)
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = valueIndex(key), decoder.document.nodes[index].kind != .null else { return nil }
        return try decode(type, forKey: key)
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let index = valueIndex(key), decoder.document.nodes[index].kind != .null else { return nil }
        return try decode(type, forKey: key)
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = valueIndex(key), decoder.document.nodes[index].kind != .null else { return nil }
        return try DecodingNode(document: decoder.document, index: index, path: decoder.path.appending(key)).decodeValue(type)
    }

    private func decode<T: Decodable>(generic type: T.Type, forKey key: Key) throws -> T {
        try decode(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

/// Reads the elements of an array in order.
struct UnkeyedReader: UnkeyedDecodingContainer {
    let decoder: DecodingNode
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { decoder.node.count }
    var isAtEnd: Bool { currentIndex >= decoder.node.count }
    private(set) var currentIndex = 0
    private var position: Int

    init(decoder: DecodingNode) {
        self.decoder = decoder
        position = decoder.index + 1
    }

    private mutating func next<T>(_ type: T.Type) throws -> DecodingNode {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "Unkeyed container is at end."))
        }
        let child = DecodingNode(document: decoder.document, index: position, path: decoder.path.appending(IndexKey(currentIndex)))
        position = decoder.document.nodes[position].next
        currentIndex += 1
        return child
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, decoder.document.nodes[position].kind == .null else { return false }
        _ = try next(Never.self)
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let child = try next(type)
        if child.node.kind == .null {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: child.codingPath, debugDescription: "Expected \(type) but found null instead."))
        }
        return try child.decodeValue(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(type).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try next(Any.self) }
}

/// Reads the one value of a node.
struct SingleValueReader: SingleValueDecodingContainer {
    let decoder: DecodingNode
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.node.kind == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if decoder.node.kind == .null {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: codingPath, debugDescription: "Expected \(type) but found null instead."))
        }
        return try decoder.decodeValue(type)
    }

    // Every scalar, so that none goes round through `init(from:)` and back here.
    func decode(_ type: Bool.Type) throws -> Bool { try decode(generic: type) }
    func decode(_ type: String.Type) throws -> String { try decode(generic: type) }
    func decode(_ type: Double.Type) throws -> Double { try decode(generic: type) }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(generic: Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeFixed(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeFixed(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeFixed(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeFixed(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeFixed(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeFixed(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeFixed(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeFixed(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeFixed(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeFixed(type) }

    private func decode<T: Decodable>(generic type: T.Type) throws -> T { try decode(type) }
}
