import FoundationEssentials

/// Any JSON value, for reading message fields by path in scenario expectations.
enum JSONValue: Decodable, Equatable {
    case string(String)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(UInt64.self) { self = .unsigned(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    /// The value at `path` (`presentation.anchor.element`, `buttons.0`), if there is one.
    func value(at path: String) -> JSONValue? {
        var current = self
        for key in path.split(separator: ".") {
            switch current {
            case .object(let object):
                guard let next = object[String(key)] else { return nil }
                current = next
            case .array(let array):
                guard let index = Int(key), array.indices.contains(index) else { return nil }
                current = array[index]
            default:
                return nil
            }
        }
        return current
    }

    /// The value as a scenario writes it: strings bare, numbers without a needless `.0`,
    /// arrays of scalars joined by commas.
    var text: String {
        switch self {
        case .string(let value): value
        case .integer(let value): String(value)
        case .unsigned(let value): String(value)
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        case .array(let values): values.map(\.text).joined(separator: ",")
        case .object: "{…}"
        }
    }
}
