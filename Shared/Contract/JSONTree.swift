#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Wire

/// A JSON value whose objects keep their members in order: the AsyncAPI document is built
/// from these so that it is written the same way every time, and messages are read into them
/// to be checked against their schema.
public indirect enum JSONTree: Sendable, Equatable {
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON literal (so `18446744073709551615` stays exact).
    case number(String)
    case string(String)
    case array([JSONTree])
    /// An object, its members in order.
    case object([JSONMember])

    /// The member `key` of an object, if this is one and has it.
    public subscript(key: String) -> JSONTree? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The number `value`, written exactly (no fraction, no exponent).
    public static func integer<T: BinaryInteger>(_ value: T) -> JSONTree { .number(String(value)) }

    /// The same object with `key` set to `value` (added at the end when it is new).
    public func setting(_ key: String, _ value: JSONTree) -> JSONTree {
        guard case .object(var members) = self else { return self }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = value
        } else {
            members.append(JSONMember(key: key, value: value))
        }
        return .object(members)
    }

    /// The number's value, if this is a number.
    public var doubleValue: Double? {
        guard case .number(let literal) = self else { return nil }
        return Double(literal)
    }

    /// Compact JSON text, members in their order.
    public var jsonText: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let literal): literal
        case .string(let text): JSONTree.quoted(text)
        case .array(let values): "[" + values.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members): "{" + members.map { JSONTree.quoted($0.key) + ":" + $0.value.jsonText }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string literal (also a YAML double-quoted scalar).
    public static func quoted(_ text: String) -> String { JSONStringLiteral.quoted(text) }

    /// The JSON text in `bytes` as a tree (members in the order of a dictionary, not the text's).
    public static func parse(_ bytes: [UInt8]) throws -> JSONTree {
        try JSONDecoder().decode(JSONTree.self, from: Data(bytes))
    }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONTree
    /// `key`: `value`.
    public init(key: String, value: JSONTree) { self.key = key; self.value = value }
}

extension JSONTree: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    /// An array.
    public init(arrayLiteral elements: JSONTree...) { self = .array(elements) }
    /// An object whose members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONTree)...) {
        self = .object(elements.map { JSONMember(key: $0.0, value: $0.1) })
    }
}

extension JSONTree: Decodable {
    /// Reads any JSON value; object members come sorted by name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(UInt64.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(String(value)) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONTree].self) { self = .array(value) }
        else {
            let members = try container.decode([String: JSONTree].self)
            self = .object(members.sorted { $0.key < $1.key }.map { JSONMember(key: $0.key, value: $0.value) })
        }
    }
}
