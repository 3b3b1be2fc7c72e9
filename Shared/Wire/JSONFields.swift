import Domain
import JSON

/// The domain's wire forms (`FieldValue`, `FieldSet`) as JSON: read with the one `JSONReader`,
/// written with the one `JSONWriter`. A set of fields is an object; its members are found in
/// any order (`JSONObjectReader`); unknown members are passed over, an absent optional field is
/// `nil`, and an absent required one is refused.
public enum JSONCoding {
    /// The JSON text of `value`; a number JSON cannot carry (NaN, an infinity) is refused.
    public static func encode<Value: FieldValue>(_ value: Value) throws(JSONError) -> [UInt8] {
        let writer = JSONWriter()
        var fields = JSONFieldWriter(writer)
        try value.write(to: &fields)
        return writer.bytes
    }

    /// The value of type `Value` in the JSON text `bytes` (nothing but whitespace after it).
    public static func decode<Value: FieldValue>(_ type: Value.Type, from bytes: [UInt8]) throws(JSONError) -> Value {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
            guard JSONReader.isUTF8(buffer) else { throw JSONError(.syntax, "the text is not valid UTF-8") }
            var reader = JSONFieldReader(JSONReader(buffer))
            let value = try Value.read(from: &reader)
            try reader.json.finish()
            return value
        }
    }
}

/// Reads wire forms from JSON text.
public struct JSONFieldReader: ValueReader {
    /// The text and where the next value is.
    public var json: JSONReader

    /// A reader of the values in `json` from its position.
    @inline(__always) public init(_ json: JSONReader) { self.json = json }

    /// A string.
    @inline(__always) public mutating func readString() throws(JSONError) -> String { try json.readString() }
    /// `true` or `false`.
    @inline(__always) public mutating func readBool() throws(JSONError) -> Bool { try json.readBool() }
    /// An integer of `T`'s range.
    @inline(__always) public mutating func readInteger<T: FixedWidthInteger & Sendable>(_ type: T.Type) throws(JSONError) -> T {
        try json.readInteger(T.self)
    }
    /// A finite number.
    @inline(__always) public mutating func readDouble() throws(JSONError) -> Double { try json.readDouble() }

    /// Any one value, as its bytes: delimited (`JSONReader.delimitValue`), checked when it is read.
    public mutating func readNested() throws(JSONError) -> NestedValue {
        json.skipWhitespace()
        let start = json.position
        try json.delimitValue()
        return NestedValue(bytes: Array(json.bytes[start..<json.position]))
    }

    /// An object, its members read into `T`'s fields.
    @inline(__always) public mutating func readObject<T: FieldSet>(_ type: T.Type) throws(JSONError) -> T {
        var visitor = JSONObjectFields(reader: self, object: try JSONObjectReader(&json))
        var value = T.placeholder
        try value.fields(&visitor)
        try visitor.object.close(&visitor.reader.json)
        self = visitor.reader
        return value
    }

    /// An array, each element a `T`.
    @inline(__always) public mutating func readArray<T: FieldValue>(of type: T.Type) throws(JSONError) -> [T] {
        var elements: [T] = []
        try json.beginArray()
        var first = true
        while try json.nextElement(&first) {
            do { elements.append(try T.read(from: &self)) } catch { throw error.inside("[\(elements.count)]") }
        }
        return elements
    }

    /// An object as a map (a repeated key's first value counts, as it does for fields).
    public mutating func readDictionary<T: FieldValue>(of type: T.Type) throws(JSONError) -> [String: T] {
        var map: [String: T] = [:]
        try json.beginObject()
        var first = true
        while let key = try json.nextKey(&first) {
            let name = json.text(of: key)
            let value: T
            do { value = try T.read(from: &self) } catch { throw error.inside(name) }
            if map[name] == nil { map[name] = value }
        }
        return map
    }

    /// A value the type does not take.
    public func invalid(_ reason: String) -> JSONError { JSONError(.value, reason) }
}

/// Fills a `FieldSet`'s fields from one JSON object.
struct JSONObjectFields: FieldVisitor {
    var reader: JSONFieldReader
    var object: JSONObjectReader

    @inline(__always) mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value) throws(JSONError) {
        guard try object.find(name, &reader.json) else { throw JSONError(.missing, "missing", path: [name.description]) }
        guard !reader.json.readNull() else { throw JSONError(.missing, "null", path: [name.description]) }
        do { value = try Value.read(from: &reader) } catch { throw error.inside(name.description) }
        object.taken(&reader.json)
    }

    @inline(__always) mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value?) throws(JSONError) {
        guard try object.find(name, &reader.json) else {
            value = nil
            return
        }
        if reader.json.readNull() {
            value = nil
        } else {
            do { value = try Value.read(from: &reader) } catch { throw error.inside(name.description) }
        }
        object.taken(&reader.json)
    }

    @inline(__always) mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value, whenAbsent absent: Value) throws(JSONError) {
        guard try object.find(name, &reader.json) else {
            value = absent
            return
        }
        if reader.json.readNull() {
            value = absent
        } else {
            do { value = try Value.read(from: &reader) } catch { throw error.inside(name.description) }
        }
        object.taken(&reader.json)
    }
}

/// Writes wire forms as JSON text; as a `FieldVisitor`, the members of one object.
public struct JSONFieldWriter: ValueWriter, FieldVisitor {
    /// Where the text goes.
    public let json: JSONWriter
    /// No member of the object being written has been written yet.
    private var first = true

    /// A writer appending to `json`.
    @inline(__always) public init(_ json: JSONWriter) { self.json = json }

    /// A string.
    @inline(__always) public mutating func writeString(_ text: String) { json.writeString(text) }
    /// `true` or `false`.
    @inline(__always) public mutating func writeBool(_ value: Bool) { json.writeBool(value) }
    /// An integer.
    @inline(__always) public mutating func writeInteger<T: FixedWidthInteger>(_ value: T) { json.writeInteger(value) }
    /// A finite number.
    @inline(__always) public mutating func writeDouble(_ value: Double) throws(JSONError) { try json.writeDouble(value) }

    /// A value's JSON as it is.
    public mutating func writeNested(_ value: NestedValue) {
        value.bytes.withUnsafeBufferPointer { json.write($0) }
    }

    /// An object of `value`'s fields, in their order, absent optionals left out.
    @inline(__always) public mutating func writeObject<T: FieldSet>(_ value: T) throws(JSONError) {
        json.write(UInt8(ascii: "{"))
        var members = JSONFieldWriter(json)
        var value = value
        try value.fields(&members)
        json.write(UInt8(ascii: "}"))
    }

    /// An array.
    @inline(__always) public mutating func writeArray<T: FieldValue>(_ values: [T]) throws(JSONError) {
        json.write(UInt8(ascii: "["))
        for index in values.indices {
            if index > 0 { json.write(UInt8(ascii: ",")) }
            do { try values[index].write(to: &self) } catch { throw error.inside("[\(index)]") }
        }
        json.write(UInt8(ascii: "]"))
    }

    /// An object of the map's entries, keys sorted.
    public mutating func writeDictionary<T: FieldValue>(_ values: [String: T]) throws(JSONError) {
        json.write(UInt8(ascii: "{"))
        for (index, entry) in values.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { json.write(UInt8(ascii: ",")) }
            json.writeString(entry.key)
            json.write(UInt8(ascii: ":"))
            do { try entry.value.write(to: &self) } catch { throw error.inside(entry.key) }
        }
        json.write(UInt8(ascii: "}"))
    }

    /// A member.
    @inline(__always) public mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value) throws(JSONError) {
        json.writeKey(name, first: first)
        first = false
        do { try value.write(to: &self) } catch { throw error.inside(name.description) }
    }

    /// A member, left out when `nil`.
    @inline(__always) public mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value?) throws(JSONError) {
        guard let present = value else { return }
        json.writeKey(name, first: first)
        first = false
        do { try present.write(to: &self) } catch { throw error.inside(name.description) }
    }

    /// A member, always written.
    @inline(__always) public mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value, whenAbsent absent: Value) throws(JSONError) {
        try field(name, &value)
    }
}
