import JSON
import Domain

/// Checks JSON values against the JSON Schemas of the AsyncAPI document, for `gateway watch
/// --validate`. It knows the keywords the generated document uses — `$ref` (within the
/// document), `allOf`, `type`, `properties`, `required`, `additionalProperties`, `items`,
/// `enum`, `const`, `minimum`, `maximum`, `minLength`, `maxLength`, `pattern` — and refuses
/// to pass a schema with any other keyword it would have to understand.
public struct SchemaValidator: Sendable {
    /// The whole document, for `$ref`s.
    public let document: JSONValue

    /// A validator for the schemas of `document`.
    public init(document: JSONValue) { self.document = document }

    /// A validator for the document generated from this build's vocabulary.
    public static func generated() throws -> SchemaValidator { SchemaValidator(document: try AsyncAPIDocument.build()) }

    /// What is wrong with `message` (an envelope) for its type's schema; empty when it conforms.
    public func problems(inEnvelope message: JSONValue) -> [String] {
        guard case .string(let type)? = message["type"] else { return ["the message has no string type"] }
        guard let messageType = MessageTypeName(type) else { return ["unknown message type '\(type)'"] }
        let reference = "#/components/messages/\(messageType.identifier)/payload"
        return problems(in: message, schema: ["$ref": .string(reference)])
    }

    /// What is wrong with `value` for `schema`, each naming the path at fault; empty when it conforms.
    public func problems(in value: JSONValue, schema: JSONValue) -> [String] {
        var found: [String] = []
        check(value, schema, path: "", into: &found)
        return found
    }

    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var current: JSONValue? = document
        for part in reference.dropFirst(2).split(separator: "/") {
            current = current?[String(part).replacingOccurrences("~1", "/").replacingOccurrences("~0", "~")]
        }
        return current
    }

    private static let annotations: Set<String> = ["description", "title", "examples", "default", "format", "$comment"]

    private func check(_ value: JSONValue, _ schema: JSONValue, path: String, into found: inout [String]) {
        let at = path.isEmpty ? "the message" : path
        guard case .object(let keywords) = schema else {
            if schema == .bool(false) { found.append("\(at): not allowed") }
            return
        }
        for keyword in keywords {
            switch (keyword.key, keyword.value) {
            case ("$ref", .string(let reference)):
                guard let target = resolve(reference) else { found.append("\(at): unresolvable $ref \(reference)"); continue }
                check(value, target, path: path, into: &found)
            case ("allOf", .array(let schemas)):
                for schema in schemas { check(value, schema, path: path, into: &found) }
            case ("type", let type):
                let names: [String]
                switch type {
                case .string(let name): names = [name]
                case .array(let list): names = list.compactMap { if case .string(let name) = $0 { name } else { nil } }
                default: names = []
                }
                if !names.contains(where: { Self.matches(value, type: $0) }) {
                    found.append("\(at): should be \(names.joined(separator: " or ")), not \(Self.kind(of: value))")
                }
            case ("properties", .object(let properties)):
                guard case .object(let members) = value else { continue }
                for property in properties {
                    if let member = members.first(where: { $0.key == property.key }) {
                        check(member.value, property.value, path: Self.join(path, property.key), into: &found)
                    }
                }
            case ("required", .array(let names)):
                guard case .object(let members) = value else { continue }
                for case .string(let name) in names where !members.contains(where: { $0.key == name }) {
                    found.append("\(Self.join(path, name)): missing (required)")
                }
            case ("additionalProperties", let allowed):
                guard case .object(let members) = value else { continue }
                let declared = schema["properties"].flatMap { tree -> [String]? in
                    if case .object(let properties) = tree { return properties.map(\.key) }
                    return nil
                } ?? []
                for member in members where !declared.contains(member.key) {
                    if allowed == .bool(false) {
                        found.append("\(Self.join(path, member.key)): not in the contract")
                    } else {
                        check(member.value, allowed, path: Self.join(path, member.key), into: &found)
                    }
                }
            case ("items", let items):
                guard case .array(let elements) = value else { continue }
                for (index, element) in elements.enumerated() {
                    check(element, items, path: Self.join(path, String(index)), into: &found)
                }
            case ("enum", .array(let allowed)):
                if !allowed.contains(where: { Self.equal($0, value) }) {
                    found.append("\(at): \(value.jsonText) is not one of \(allowed.map(\.jsonText).joined(separator: ", "))")
                }
            case ("const", let constant):
                if !Self.equal(constant, value) { found.append("\(at): should be \(constant.jsonText), not \(value.jsonText)") }
            case ("minimum", let bound):
                if let number = value.doubleValue, let limit = bound.doubleValue, number < limit { found.append("\(at): \(number) is below \(bound.jsonText)") }
            case ("maximum", let bound):
                if let number = value.doubleValue, let limit = bound.doubleValue, number > limit { found.append("\(at): \(number) is above \(bound.jsonText)") }
            case ("minLength", let bound):
                if case .string(let text) = value, let limit = bound.doubleValue, Double(text.unicodeScalars.count) < limit {
                    found.append("\(at): shorter than \(bound.jsonText) characters")
                }
            case ("maxLength", let bound):
                if case .string(let text) = value, let limit = bound.doubleValue, Double(text.unicodeScalars.count) > limit {
                    found.append("\(at): longer than \(bound.jsonText) characters")
                }
            case ("pattern", .string(let pattern)):
                guard case .string(let text) = value else { continue }
                do {
                    let regex = try Regex(pattern)
                    if (try? regex.firstMatch(in: text)) == nil { found.append("\(at): \(JSONWriter.quoted(text)) does not match \(pattern)") }
                } catch {
                    found.append("\(at): the contract's pattern \(pattern) cannot be read")
                }
            case (let name, _) where Self.annotations.contains(name):
                continue
            default:
                found.append("\(at): the validator does not know the keyword \(keyword.key)")
            }
        }
    }

    private static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("number", .number): true
        case ("integer", .number(let literal)): Double(literal).map { $0 == $0.rounded() } ?? false
        default: false
        }
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// JSON equality: numbers by value, objects whatever their members' order.
    private static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.number, .number): left.doubleValue == right.doubleValue
        case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            a.count == b.count && a.allSatisfy { member in b.contains { $0.key == member.key && equal($0.value, member.value) } }
        default: left == right
        }
    }
}

/// A message type named on the wire, with its identifier in the document.
struct MessageTypeName {
    let identifier: String
    init?(_ name: String) {
        guard let type = MessageType(rawValue: name) else { return nil }
        identifier = AsyncAPIDocument.identifier(type)
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
