/// Any JSON value as a tree whose objects keep their members in order: for documents and tools
/// (the contract, scenario expectations, etcd's answers), read and written with `JSONReader` and
/// `JSONWriter`. Numbers keep the text they were written with, so nothing is rounded on the way
/// through.
public indirect enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number as it is written (valid JSON number grammar).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The value of the first member `key`, for an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The value at a dotted `path` (`presentation.anchor.element`, `buttons.0`), if there is one.
    public func value(at path: String) -> JSONValue? {
        var current = self
        for part in path.split(separator: ".") {
            switch current {
            case .object:
                guard let next = current[String(part)] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(part), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// A number of `value`.
    public static func integer<T: BinaryInteger>(_ value: T) -> JSONValue { .number(String(value)) }

    /// This object with member `key` set to `value` (replaced where it is, else appended).
    public func setting(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key: key, value: value))
        }
        return .object(members)
    }

    /// The number as a double.
    public var doubleValue: Double? {
        guard case .number(let literal) = self else { return nil }
        return Double(literal)
    }

    /// The string's text.
    public var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The value written as compact JSON.
    public var jsonText: String {
        let writer = JSONWriter()
        write(to: writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Writes the value as compact JSON.
    public func write(to writer: JSONWriter) {
        switch self {
        case .null: writer.writeNull()
        case .bool(let value): writer.writeBool(value)
        case .number(var literal): literal.withUTF8 { writer.write($0) }
        case .string(let text): writer.writeString(text)
        case .array(let elements):
            writer.write(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { writer.write(UInt8(ascii: ",")) }
                element.write(to: writer)
            }
            writer.write(UInt8(ascii: "]"))
        case .object(let members):
            writer.write(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { writer.write(UInt8(ascii: ",")) }
                writer.writeString(member.key)
                writer.write(UInt8(ascii: ":"))
                member.value.write(to: writer)
            }
            writer.write(UInt8(ascii: "}"))
        }
    }

    /// The one JSON value of `bytes` (whitespace around it allowed), or why they are not one.
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONError) in
            guard JSONReader.isUTF8(buffer) else { throw JSONError(.syntax, "the text is not valid UTF-8") }
            var reader = JSONReader(buffer)
            let value = try read(&reader)
            try reader.finish()
            return value
        }
    }

    /// The one JSON value of `text`.
    public static func parse(_ text: String) throws(JSONError) -> JSONValue { try parse(Array(text.utf8)) }

    /// The value that comes next in `reader`.
    public static func read(_ reader: inout JSONReader) throws(JSONError) -> JSONValue {
        switch try reader.kind() {
        case .null:
            guard reader.readNull() else { throw reader.unexpected("null") }
            return .null
        case .bool: return .bool(try reader.readBool())
        case .number:
            // As a number's reader would: one too large for a double is refused, not kept as text.
            let literal = reader.text(try reader.readNumberBytes())
            guard let value = Double(literal), value.isFinite else { throw JSONError(.value, "\(literal) is too large for a double") }
            return .number(literal)
        case .string: return .string(try reader.readString())
        case .array:
            var elements: [JSONValue] = []
            try reader.beginArray()
            var first = true
            while try reader.nextElement(&first) {
                do { elements.append(try read(&reader)) } catch { throw error.inside("[\(elements.count)]") }
            }
            return .array(elements)
        case .object:
            var members: [JSONMember] = []
            try reader.beginObject()
            var first = true
            while let key = try reader.nextKey(&first) {
                let name = reader.text(of: key)
                do { members.append(JSONMember(key: name, value: try read(&reader))) } catch { throw error.inside(name) }
            }
            return .object(members)
        }
    }
}

/// One member of a `JSONValue` object.
public struct JSONMember: Sendable, Equatable {
    /// The member's key.
    public var key: String
    /// Its value.
    public var value: JSONValue
    /// The member `key`: `value`.
    public init(key: String, value: JSONValue) { self.key = key; self.value = value }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object, its members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { JSONMember(key: $0.0, value: $0.1) })
    }
}
