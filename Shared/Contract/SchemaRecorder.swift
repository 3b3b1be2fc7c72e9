import Domain
import JSON

/// Learns the JSON Schema of a wire form by walking its declaration: a `FieldSet` becomes an
/// object of its fields (required unless optional or read with a value when absent), in the
/// order they are written; a list its elements' schema, a map its values'; string enumerations
/// list their cases; scalars their JSON type (integers with their bounds). The schema therefore
/// follows the declaration itself: a field removed from a body type disappears from it.
///
/// Types whose reading checks the value beyond its form (a name from a list, a version string)
/// describe themselves (`SchemaDescribing`).
public final class SchemaRecorder {
    /// Every named type met so far (field sets, enumerations, described types), by component name.
    public private(set) var components: [String: JSONValue] = [:]

    /// A recorder with no component yet.
    public init() {}

    /// The component name of `type`: its Swift name without the module and dots (`AnchorKind`).
    public static func name(of type: Any.Type) -> String {
        String(reflecting: type).split(separator: ".").dropFirst().joined()
    }

    /// A `$ref` to the component `name`.
    public static func reference(_ name: String) -> JSONValue { ["$ref": .string("#/components/schemas/" + name)] }

    /// The schema of `type`: a `$ref` to a component for named types. A type whose reading
    /// refuses the blank values the recorder answers with must state its schema
    /// (`SchemaDescribing`).
    public func schema<Value: FieldValue>(of type: Value.Type) throws(ContractError) -> JSONValue {
        if let described = type as? any SchemaDescribing.Type {
            let name = Self.name(of: type)
            components[name] = described.jsonSchema
            return Self.reference(name)
        }
        if let enumeration = type as? any FieldCase.Type {
            let name = Self.name(of: type)
            components[name] = ["type": "string", "enum": .array(Self.cases(of: enumeration).map(JSONValue.string))]
            return Self.reference(name)
        }
        var reader = RecordingReader(recorder: self)
        do {
            _ = try Value.read(from: &reader)
        } catch {
            throw ContractError("\(Self.name(of: type)) refuses a blank value (\(error)): a type whose reading checks its value must state its schema (SchemaDescribing, in Shared/Contract/Descriptions.swift)")
        }
        return reader.recorded
    }

    private static func cases<E: FieldCase>(of type: E.Type) -> [String] { type.allCases.map(\.rawValue) }

    /// Records the object of `type`'s fields as a component.
    fileprivate func record<Value: FieldSet>(_ type: Value.Type) throws(ContractError) -> JSONValue {
        let name = Self.name(of: type)
        if components[name] == nil {
            components[name] = [:]
            var fields = RecordingFields(recorder: self)
            var value = Value.placeholder
            try value.fields(&fields)
            components[name] = fields.schema
        }
        return Self.reference(name)
    }
}

/// A type whose reading checks its value beyond its wire form, so its schema cannot be read off
/// its declaration: it states it.
public protocol SchemaDescribing {
    /// The JSON Schema of the type's JSON form.
    static var jsonSchema: JSONValue { get }
}

/// Answers every read with a blank value and notes the schema of what was asked for.
private struct RecordingReader: ValueReader {
    let recorder: SchemaRecorder
    var recorded: JSONValue = [:]

    init(recorder: SchemaRecorder) { self.recorder = recorder }

    typealias Failure = ContractError

    mutating func readString() -> String {
        recorded = ["type": "string"]
        return ""
    }

    mutating func readBool() -> Bool {
        recorded = ["type": "boolean"]
        return false
    }

    mutating func readInteger<T: FixedWidthInteger & Sendable>(_ type: T.Type) -> T {
        recorded = T.bitWidth < 64 || !T.isSigned
            ? ["type": "integer", "minimum": .integer(T.min), "maximum": .integer(T.max)] : ["type": "integer"]
        return 0
    }

    mutating func readDouble() -> Double {
        recorded = ["type": "number"]
        return 0
    }

    mutating func readObject<T: FieldSet>(_ type: T.Type) throws(ContractError) -> T {
        recorded = try recorder.record(type)
        return T.placeholder
    }

    mutating func readArray<T: FieldValue>(of type: T.Type) throws(ContractError) -> [T] {
        recorded = ["type": "array", "items": try recorder.schema(of: type)]
        return []
    }

    mutating func readDictionary<T: FieldValue>(of type: T.Type) throws(ContractError) -> [String: T] {
        recorded = ["type": "object", "additionalProperties": try recorder.schema(of: type)]
        return [:]
    }

    mutating func readNested() -> NestedValue {
        recorded = ["description": "any JSON value, carried whole"]
        return NestedValue(bytes: [])
    }

    func invalid(_ reason: String) -> ContractError { ContractError(reason) }
}

/// Notes each field of a `FieldSet`: its name, its schema, whether it is required.
private struct RecordingFields: FieldVisitor {
    let recorder: SchemaRecorder
    var properties: [JSONMember] = []
    var required: [String] = []

    init(recorder: SchemaRecorder) { self.recorder = recorder }

    typealias Failure = ContractError

    mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value) throws(ContractError) {
        try add(name, Value.self, required: true)
    }

    mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value?) throws(ContractError) {
        try add(name, Value.self, required: false)
    }

    mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value, whenAbsent absent: Value) throws(ContractError) {
        try add(name, Value.self, required: false)
    }

    private mutating func add<Value: FieldValue>(_ name: StaticString, _ type: Value.Type, required isRequired: Bool) throws(ContractError) {
        let key = name.description
        guard !properties.contains(where: { $0.key == key }) else { return }
        properties.append(JSONMember(key: key, value: try recorder.schema(of: type)))
        if isRequired { required.append(key) }
    }

    /// The object's schema: its properties in order, the required ones, nothing else allowed.
    var schema: JSONValue {
        var schema: JSONValue = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { schema = schema.setting("required", .array(required.map(JSONValue.string))) }
        return schema.setting("additionalProperties", false)
    }
}
