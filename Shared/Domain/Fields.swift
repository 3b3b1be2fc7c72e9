/// The wire form of the domain's values, said once and in no format: a value is a string, a
/// number, a boolean, a list, a map, a set of named fields (`FieldSet`), or a value carried
/// whole without being looked into (`NestedValue`). The wire reads and
/// writes these forms as JSON; the contract describes them; the domain never spells them.

/// A value with a wire form, read and written through any format's reader and writer.
public protocol FieldValue: Sendable {
    /// Reads a value of this type from what `reader` is at.
    static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> Self
    /// Writes this value with `writer`.
    func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure)
}

/// A value made of named fields (an object on the wire), declared once in `fields(_:)`: the one
/// list that reading, writing, the contract's schema and the tests walk. Its fields are
/// visited in the order they are written; an optional one is absent from the wire when `nil`.
public protocol FieldSet: FieldValue {
    /// What reading starts from before each field read replaces its part. A required field
    /// missing from the wire is refused, so no placeholder part is ever seen.
    static var placeholder: Self { get }
    /// Visits each field, in order: `try fields.field("name", &name)`.
    mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure)
}

/// What walks a `FieldSet`'s fields: a reader fills them, a writer writes them, a recorder
/// notes their names and types.
public protocol FieldVisitor {
    /// Why the walk stopped.
    associatedtype Failure: Error
    /// A field the wire form always has.
    mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value) throws(Failure)
    /// A field that may be absent (or `null`): `nil` then.
    mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value?) throws(Failure)
    /// A field that may be absent: `absent` then (and always written).
    mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value, whenAbsent absent: Value) throws(Failure)
}

/// Reads values of the wire forms from a format.
public protocol ValueReader {
    /// Why a value could not be read.
    associatedtype Failure: Error
    /// A string.
    mutating func readString() throws(Failure) -> String
    /// A boolean.
    mutating func readBool() throws(Failure) -> Bool
    /// An integer that fits `T`.
    mutating func readInteger<T: FixedWidthInteger & Sendable>(_ type: T.Type) throws(Failure) -> T
    /// A finite number.
    mutating func readDouble() throws(Failure) -> Double
    /// A set of fields.
    mutating func readObject<T: FieldSet>(_ type: T.Type) throws(Failure) -> T
    /// A list of values.
    mutating func readArray<T: FieldValue>(of type: T.Type) throws(Failure) -> [T]
    /// A map from strings to values.
    mutating func readDictionary<T: FieldValue>(of type: T.Type) throws(Failure) -> [String: T]
    /// Any one value, kept as the format wrote it: delimited now, its content checked when it is read.
    mutating func readNested() throws(Failure) -> NestedValue
    /// The failure for a value of the right form that its type does not take (a string that
    /// is none of an enumeration's cases): `reason` says why.
    func invalid(_ reason: String) -> Failure
}

/// Writes values of the wire forms in a format.
public protocol ValueWriter {
    /// Why a value could not be written (a number the format cannot spell).
    associatedtype Failure: Error
    /// A string.
    mutating func writeString(_ text: String)
    /// A boolean.
    mutating func writeBool(_ value: Bool)
    /// An integer.
    mutating func writeInteger<T: FixedWidthInteger>(_ value: T)
    /// A number.
    mutating func writeDouble(_ value: Double) throws(Failure)
    /// A set of fields.
    mutating func writeObject<T: FieldSet>(_ value: T) throws(Failure)
    /// A list of values.
    mutating func writeArray<T: FieldValue>(_ values: [T]) throws(Failure)
    /// A map, its keys in sorted order (the same value is always the same text).
    mutating func writeDictionary<T: FieldValue>(_ values: [String: T]) throws(Failure)
    /// A value kept as the format wrote it (read by `readNested`, or written by this format).
    mutating func writeNested(_ value: NestedValue)
}

extension FieldSet {
    /// Reads the fields as a set.
    @inlinable
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> Self {
        try reader.readObject(Self.self)
    }

    /// Writes the fields as a set.
    @inlinable
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        try writer.writeObject(self)
    }
}

/// A string enumeration whose wire form is its raw value.
public protocol FieldCase: FieldValue, RawRepresentable, CaseIterable where RawValue == String {}

extension FieldCase {
    /// Reads one of the raw values; any other string is refused, naming the ones there are.
    @inlinable
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> Self {
        let text = try reader.readString()
        guard let value = Self(rawValue: text) else {
            throw reader.invalid("'\(text.prefix(40))' is not one of \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// Writes the raw value.
    @inlinable
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        writer.writeString(rawValue)
    }
}

extension String: FieldValue {
    /// Reads a string.
    @inlinable
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> String {
        try reader.readString()
    }

    /// Writes the string.
    @inlinable
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        writer.writeString(self)
    }
}

extension Bool: FieldValue {
    /// Reads a boolean.
    @inlinable
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> Bool {
        try reader.readBool()
    }

    /// Writes the boolean.
    @inlinable
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        writer.writeBool(self)
    }
}

extension Double: FieldValue {
    /// Reads a finite number.
    @inlinable
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> Double {
        try reader.readDouble()
    }

    /// Writes the number (refused by the writer when it is not finite).
    @inlinable
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        try writer.writeDouble(self)
    }
}

/// An integer whose wire form is a number (of its range).
public protocol FieldInteger: FieldValue, FixedWidthInteger {}

extension FieldInteger {
    /// Reads an integer of this type's range.
    @inlinable
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> Self {
        try reader.readInteger(Self.self)
    }

    /// Writes the integer.
    @inlinable
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        writer.writeInteger(self)
    }
}

extension Int: FieldInteger {}
extension Int32: FieldInteger {}
extension Int64: FieldInteger {}
extension UInt64: FieldInteger {}
extension UInt8: FieldInteger {}

extension Array: FieldValue where Element: FieldValue {
    /// Reads a list.
    @inlinable
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> [Element] {
        try reader.readArray(of: Element.self)
    }

    /// Writes the list.
    @inlinable
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        try writer.writeArray(self)
    }
}

extension Set: FieldValue where Element: FieldValue & Comparable {
    /// Reads a list as a set.
    @inlinable
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> Set<Element> {
        Set(try reader.readArray(of: Element.self))
    }

    /// Writes the set as a sorted list (the same set is always the same text).
    @inlinable
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        try writer.writeArray(sorted())
    }
}

extension Dictionary: FieldValue where Key == String, Value: FieldValue {
    /// Reads a map.
    @inlinable
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> [String: Value] {
        try reader.readDictionary(of: Value.self)
    }

    /// Writes the map, its keys sorted.
    @inlinable
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        try writer.writeDictionary(self)
    }
}

/// One value of any form, kept as the wire wrote it and never looked into: one service's device
/// state carried by the sharding layer, which does not know its fields, and which would pay to
/// escape it into a string and back at every action.
public struct NestedValue: FieldValue, Equatable {
    /// The value in the wire's format (JSON): only delimited when it was read, checked when it is decoded.
    public var bytes: [UInt8]

    /// The value written as `bytes` (by the same format's writer).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Reads the next value whole.
    public static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> NestedValue {
        try reader.readNested()
    }

    /// Writes the value as it is.
    public func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
        writer.writeNested(self)
    }
}
