/// Learns the JSON Schema of a `Decodable` type by running the type's own `init(from:)` against
/// a decoder that answers every question with a sample value and writes down what was asked:
/// each key through `decode` (required) or `decodeIfPresent` (optional), with the type asked
/// for, recursing into nested types. The schema therefore follows the Codable code itself: a
/// field removed from a body type disappears from the schema.
///
/// Types whose decoding checks the value (a name from a list, a version string) describe
/// themselves (`SchemaDescribing`); `String`/`Int` enums list their cases (`CaseIterable`);
/// string-keyed dictionaries become objects with `additionalProperties`.
public final class SchemaRecorder {
    /// Every named type met so far (structs, enums, described types), by component name.
    public private(set) var components: [String: JSONTree] = [:]
    /// Sample strings to answer with at given coding paths (dotted), where the decoder checks them.
    public var samples: [String: String]

    /// A recorder answering with `samples` at those coding paths (e.g. `type`: a message type).
    public init(samples: [String: String] = [:]) { self.samples = samples }

    /// The component name of `type`: its Swift name without the module and dots (`AnchorKind`).
    public static func name(of type: Any.Type) -> String {
        String(reflecting: type).split(separator: ".").dropFirst().joined()
    }

    /// The schema of `type` (a `$ref` to a component for named types) and a sample value of it.
    public func schema<T: Decodable>(of type: T.Type, at path: [any CodingKey] = []) throws -> (schema: JSONTree, sample: T) {
        if let primitive = Self.primitive(type, sample: samples[Self.dotted(path)]) {
            return (primitive.schema, primitive.sample as! T)
        }
        if let described = type as? any SchemaDescribing.Type {
            let name = Self.name(of: type)
            components[name] = described.jsonSchema
            return (Self.reference(name), described.schemaSample as! T)
        }
        if let enumeration = type as? any (CaseIterable & RawRepresentable).Type, let found = Self.cases(of: enumeration) {
            let name = Self.name(of: type)
            components[name] = found.schema
            return (Self.reference(name), found.sample as! T)
        }
        if let dictionary = type as? any StringKeyedDictionary.Type {
            let values = try dictionary.valueSchema(self, at: path)
            return (["type": "object", "additionalProperties": values], dictionary.empty as! T)
        }
        let decoder = RecordingDecoder(recorder: self, codingPath: path)
        let sample: T
        do {
            sample = try T(from: decoder)
        } catch where type is any RawRepresentable.Type {
            throw ContractError("\(Self.name(of: type)) has raw values the contract cannot list: make it CaseIterable (\(error))")
        }
        switch decoder.recorded {
        case .object(let record):
            let name = Self.name(of: type)
            components[name] = record.schema
            return (Self.reference(name), sample)
        case .array(let items):
            return (["type": "array", "items": items.value ?? [:]], sample)
        case .single(let schema):
            return (schema, sample)
        case .nothing:
            // A type that reads nothing (an empty request): an object with no members.
            let name = Self.name(of: type)
            components[name] = ObjectRecord().schema
            return (Self.reference(name), sample)
        }
    }

    /// A `$ref` to the component `name`.
    public static func reference(_ name: String) -> JSONTree { ["$ref": .string("#/components/schemas/" + name)] }

    static func dotted(_ path: [any CodingKey]) -> String { path.map(\.stringValue).joined(separator: ".") }

    private static func cases<E: CaseIterable & RawRepresentable>(of type: E.Type) -> (schema: JSONTree, sample: Any)? {
        let all = Array(type.allCases)
        guard let first = all.first else { return nil }
        if let names = all.map(\.rawValue) as? [String] {
            return (["type": "string", "enum": .array(names.map(JSONTree.string))], first)
        }
        if let numbers = all.map(\.rawValue) as? [Int] {
            return (["type": "integer", "enum": .array(numbers.map(JSONTree.integer))], first)
        }
        return nil
    }

    /// The schema and a sample of a type JSON has directly (strings, booleans, numbers).
    private static func primitive(_ type: Any.Type, sample: String?) -> (schema: JSONTree, sample: Any)? {
        func integer<T: FixedWidthInteger>(_: T.Type) -> (JSONTree, Any) {
            var schema: JSONTree = ["type": "integer"]
            if T.bitWidth < 64 || !T.isSigned {
                schema = schema.setting("minimum", .integer(T.min)).setting("maximum", .integer(T.max))
            }
            return (schema, T(1))
        }
        switch type {
        case is String.Type: return (["type": "string"], sample ?? "x")
        case is Bool.Type: return (["type": "boolean"], false)
        case is Double.Type: return (["type": "number"], 1.0)
        case is Float.Type: return (["type": "number"], Float(1))
        case is Int.Type: return (["type": "integer"], 1)
        case is Int64.Type: return (["type": "integer"], Int64(1))
        case is Int8.Type: return integer(Int8.self)
        case is Int16.Type: return integer(Int16.self)
        case is Int32.Type: return integer(Int32.self)
        case is UInt.Type: return integer(UInt.self)
        case is UInt8.Type: return integer(UInt8.self)
        case is UInt16.Type: return integer(UInt16.self)
        case is UInt32.Type: return integer(UInt32.self)
        case is UInt64.Type: return integer(UInt64.self)
        default: return nil
        }
    }
}

/// A type whose decoding checks its value beyond its JSON type, so the recorder cannot invent
/// a sample: it states its schema and a sample value itself.
public protocol SchemaDescribing {
    /// The JSON Schema of the type's JSON form.
    static var jsonSchema: JSONTree { get }
    /// A valid value, handed to the decoding that asked for one.
    static var schemaSample: Self { get }
}

/// `[String: Value]`: a JSON object with any member names (Dictionary's decoding asks only for
/// the keys that are there, so the recorder would see none).
protocol StringKeyedDictionary {
    static func valueSchema(_ recorder: SchemaRecorder, at path: [any CodingKey]) throws -> JSONTree
    static var empty: Any { get }
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
    static func valueSchema(_ recorder: SchemaRecorder, at path: [any CodingKey]) throws -> JSONTree {
        try recorder.schema(of: Value.self, at: path).schema
    }
    static var empty: Any { [String: Value]() }
}

/// What a recording decoder was asked for.
enum Recorded {
    case nothing
    case object(ObjectRecord)
    case array(ItemsRecord)
    case single(JSONTree)
}

/// The keys asked of an object, in order, and which were required.
final class ObjectRecord {
    var properties: [JSONMember] = []
    var required: [String] = []

    func add(_ key: String, _ schema: JSONTree, required isRequired: Bool) {
        guard !properties.contains(where: { $0.key == key }) else { return }
        properties.append(JSONMember(key: key, value: schema))
        if isRequired { required.append(key) }
    }

    var schema: JSONTree {
        var schema: JSONTree = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema = schema.setting("required", .array(required.map(JSONTree.string))) }
        return schema.setting("additionalProperties", false)
    }
}

/// The schema of an array's elements, from the first element asked for.
final class ItemsRecord {
    var value: JSONTree?
}

final class RecordingDecoder: Decoder {
    let recorder: SchemaRecorder
    let codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: Any] = [:]
    var recorded = Recorded.nothing

    init(recorder: SchemaRecorder, codingPath: [any CodingKey]) {
        self.recorder = recorder; self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let record: ObjectRecord
        if case .object(let existing) = recorded { record = existing } else { record = ObjectRecord() }
        recorded = .object(record)
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(recorder: recorder, codingPath: codingPath, record: record))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let items = ItemsRecord()
        recorded = .array(items)
        return RecordingUnkeyedContainer(recorder: recorder, codingPath: codingPath, items: items)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        RecordingSingleValueContainer(decoder: self)
    }
}

struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: SchemaRecorder
    let codingPath: [any CodingKey]
    let record: ObjectRecord
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    private func field<T: Decodable>(_ type: T.Type, _ key: Key, required: Bool) throws -> T {
        let found = try recorder.schema(of: type, at: codingPath + [key])
        record.add(key.stringValue, found.schema, required: required)
        return found.sample
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try field(type, key, required: true) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try field(type, key, required: true) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try field(type, key, required: true) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try field(type, key, required: true) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try field(type, key, required: true) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try field(type, key, required: true) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try field(type, key, required: true) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try field(type, key, required: true) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try field(type, key, required: true) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try field(type, key, required: true) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try field(type, key, required: true) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try field(type, key, required: true) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try field(type, key, required: true) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try field(type, key, required: true) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try field(type, key, required: true) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try field(type, key, required: false) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try field(type, key, required: false) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try field(type, key, required: false) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try superDecoder(forKey: key).container(keyedBy: type)
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try superDecoder(forKey: key).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "the schema recorder does not follow superDecoder()"))
    }
    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: "the schema recorder does not follow nested containers: decode a type instead"))
    }
}

struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let recorder: SchemaRecorder
    let codingPath: [any CodingKey]
    let items: ItemsRecord
    var count: Int? { nil }
    var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    init(recorder: SchemaRecorder, codingPath: [any CodingKey], items: ItemsRecord) {
        self.recorder = recorder; self.codingPath = codingPath; self.items = items
    }

    mutating func decodeNil() throws -> Bool { false }

    private mutating func element<T: Decodable>(_ type: T.Type) throws -> T {
        let found = try recorder.schema(of: type, at: codingPath)
        if items.value == nil { items.value = found.schema }
        currentIndex += 1
        return found.sample
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try element(type) }
    mutating func decode(_ type: String.Type) throws -> String { try element(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try element(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try element(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try element(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try element(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try element(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try element(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try element(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try element(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try element(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try element(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try element(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try element(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try element(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "the schema recorder does not follow nested containers: decode a type instead"))
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "the schema recorder does not follow nested containers: decode a type instead"))
    }
    mutating func superDecoder() throws -> any Decoder {
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "the schema recorder does not follow superDecoder()"))
    }
}

struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let decoder: RecordingDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { false }

    private func value<T: Decodable>(_ type: T.Type) throws -> T {
        let found = try decoder.recorder.schema(of: type, at: codingPath)
        decoder.recorded = .single(found.schema)
        return found.sample
    }

    func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    func decode(_ type: String.Type) throws -> String { try value(type) }
    func decode(_ type: Double.Type) throws -> Double { try value(type) }
    func decode(_ type: Float.Type) throws -> Float { try value(type) }
    func decode(_ type: Int.Type) throws -> Int { try value(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }
}
