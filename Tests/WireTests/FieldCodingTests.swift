import Domain
import Foundation
import JSON
import Testing
import TestSupport
import Wire
import TestTiers

/// The wire forms as JSON, against Foundation's reading of the same text: what the codec writes is
/// JSON any reader reads; the members are read whatever their order and spacing; a member of the
/// wrong JSON type is refused for every message type; and each declaration names every field.
@Suite(.tags(.unit)) struct FieldCodingTests {
    let codec = EnvelopeCodec()

    @Test(arguments: Samples.bodies)
    func foundationReadsWhatTheCodecWrites(_ body: Body) throws {
        let json = try codec.encode(Samples.envelope(body))
        let object = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
        #expect(object?["type"] as? String == body.type.rawValue)
        #expect(object?["body"] is [String: Any])
    }

    @Test(arguments: Samples.bodies)
    func membersInAnyOrderAndSpacingAreReadTheSame(_ body: Body) throws {
        var envelope = Samples.envelope(body)
        envelope.replyTo = "0123456789abcdef"
        let tree = try JSONValue.parse(codec.encode(envelope))
        // A replica's state is a frame of its own, not in the JSON.
        if case .replica(var replica) = body {
            replica.snapshot = nil
            envelope.body = .replica(replica)
        }
        for seed in 1...3 {
            var random = SplitMix(seed: UInt64(seed))
            let text = Self.rewritten(tree, &random)
            #expect(try codec.decode(Array(text.utf8)) == envelope, "\(text)")
        }
    }

    /// `tree` written with its objects' members shuffled and whitespace between every token.
    static func rewritten(_ tree: JSONValue, _ random: inout SplitMix) -> String {
        let space = [" ", "\n", "\t ", "\r\n  ", ""][Int(random.next() % 5)]
        switch tree {
        case .object(let members):
            let shuffled = members.shuffled(using: &random)
            return "{" + space + shuffled.map { JSONWriter.quoted($0.key) + space + ":" + space + rewritten($0.value, &random) }
                .joined(separator: space + "," + space) + space + "}"
        case .array(let elements):
            return "[" + space + elements.map { rewritten($0, &random) }.joined(separator: space + "," + space) + space + "]"
        default:
            return tree.jsonText
        }
    }

    /// Every member of every message (header and body, at any depth, each array's first
    /// element) replaced by a value of each other JSON type is refused: `bad-shape`, or
    /// `missing-field` when a required member is `null`; an optional member may be `null` (absent).
    @Test(arguments: Samples.bodies)
    func aMemberOfTheWrongJSONTypeIsRefused(_ body: Body) throws {
        var envelope = Samples.envelope(body)
        envelope.replyTo = "0123456789abcdef"
        let tree = try JSONValue.parse(codec.encode(envelope))
        for path in Self.paths(tree) {
            guard let original = Self.value(in: tree, at: path) else { continue }
            for replacement in Self.others(than: original) {
                let damaged = Self.replacing(tree, at: path[...], with: replacement).jsonText
                let location = path.map(\.description).joined(separator: ".")
                // A nested value takes any JSON, at any depth: it is carried, not read.
                if location.hasPrefix("body.snapshot") { continue }
                do {
                    _ = try codec.decode(Array(damaged.utf8))
                    // Accepted: only a `null` where the member may be absent.
                    #expect(replacement == .null && Self.mayBeAbsent(tree, at: path, body: body), "\(body.type.rawValue): \(location) = \(replacement.jsonText) was accepted")
                } catch {
                    let codes: [MessageError.Code] = replacement == .null ? [.missingField, .badShape] : [.badShape, .unknownType, .unsupportedVersion]
                    #expect(codes.contains(error.code), "\(body.type.rawValue): \(location) = \(replacement.jsonText): \(error)")
                }
            }
        }
    }

    /// Whether the member at `path` may be absent: dropping it still gives a message.
    static func mayBeAbsent(_ tree: JSONValue, at path: [Step], body: Body) -> Bool {
        (try? EnvelopeCodec().decode(Array(removing(tree, at: path[...]).jsonText.utf8))) != nil
    }

    @Test func aSnapshotRequestWhoseBodyIsNotAnObjectIsRefused() throws {
        for bad in ["[]", "3", "\"x\"", "true"] {
            let text = String(decoding: try codec.encode(Samples.envelope(.snapshotRequest(SnapshotRequest()))), as: UTF8.self)
                .replacingOccurrences(of: "\"body\":{}", with: "\"body\":\(bad)")
            let error = try #require(throws: MessageError.self) { try codec.decode(Array(text.utf8)) }
            #expect(error.code == .badShape, "\(bad)")
            #expect(error.reason == "field 'body' should be an object, not \(bad == "[]" ? "an array" : bad == "3" ? "a number" : bad == "true" ? "a bool" : "a string")")
        }
    }

    /// A field added to a model and not to its `fields(_:)` would be silently dropped on the
    /// wire: every stored property of every value reachable from the samples is declared.
    @Test(arguments: Samples.bodies)
    func everyStoredPropertyIsDeclared(_ body: Body) {
        var seen: Set<String> = []
        Self.checkDeclared(body.payload, &seen)
    }

    static func checkDeclared(_ value: any FieldSet, _ seen: inout Set<String>) {
        let typeName = String(reflecting: type(of: value))
        var names = FieldNames()
        var copy = value
        copy.fieldNames(&names)
        // A replica's state travels as a frame of its own (`EnvelopeCodec.frames`), not a field.
        let stored = Mirror(reflecting: value).children.compactMap(\.label).filter { !(value is Replica && $0 == "snapshot") }
        if seen.insert(typeName).inserted {
            #expect(names.names == stored, "\(typeName): declared \(names.names), stored \(stored)")
        }
        for child in Mirror(reflecting: value).children {
            for nested in fieldSets(in: child.value) { checkDeclared(nested, &seen) }
        }
    }

    /// The field sets in `value`: itself, the present value of an optional, an array's elements.
    static func fieldSets(in value: Any) -> [any FieldSet] {
        if let set = value as? any FieldSet { return [set] }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional, .collection, .set: return mirror.children.flatMap { fieldSets(in: $0.value) }
        default: return []
        }
    }

    // MARK: Paths in a tree

    /// One step into a tree: a member's key or an array's index.
    enum Step: CustomStringConvertible, Equatable {
        case key(String), index(Int)
        var description: String {
            switch self {
            case .key(let key): key
            case .index(let index): String(index)
            }
        }
    }

    /// Every member's path, and each array's first element's.
    static func paths(_ tree: JSONValue, prefix: [Step] = []) -> [[Step]] {
        switch tree {
        case .object(let members): return members.flatMap { [prefix + [.key($0.key)]] + paths($0.value, prefix: prefix + [.key($0.key)]) }
        case .array(let elements):
            guard let first = elements.first else { return [] }
            return [prefix + [.index(0)]] + paths(first, prefix: prefix + [.index(0)])
        default: return []
        }
    }

    static func value(in tree: JSONValue, at path: [Step]) -> JSONValue? {
        var current = tree
        for step in path {
            switch (step, current) {
            case (.key(let key), .object): guard let next = current[key] else { return nil }; current = next
            case (.index(let index), .array(let elements)): guard elements.indices.contains(index) else { return nil }; current = elements[index]
            default: return nil
            }
        }
        return current
    }

    /// Values of every JSON type but `value`'s.
    static func others(than value: JSONValue) -> [JSONValue] {
        let all: [JSONValue] = [.null, .bool(true), .number("7"), .string("x"), .array([]), .object([])]
        func kind(_ value: JSONValue) -> Int {
            switch value {
            case .null: 0
            case .bool: 1
            case .number: 2
            case .string: 3
            case .array: 4
            case .object: 5
            }
        }
        return all.filter { kind($0) != kind(value) }
    }

    static func replacing(_ tree: JSONValue, at path: ArraySlice<Step>, with replacement: JSONValue) -> JSONValue {
        guard let step = path.first else { return replacement }
        switch (step, tree) {
        case (.key(let key), .object(var members)):
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = replacing(members[index].value, at: path.dropFirst(), with: replacement)
            }
            return .object(members)
        case (.index(let index), .array(var elements)):
            elements[index] = replacing(elements[index], at: path.dropFirst(), with: replacement)
            return .array(elements)
        default:
            return tree
        }
    }

    static func removing(_ tree: JSONValue, at path: ArraySlice<Step>) -> JSONValue {
        guard let step = path.first else { return tree }
        switch (step, tree) {
        case (.key(let key), .object(var members)):
            if path.count == 1 { members.removeAll { $0.key == key }; return .object(members) }
            if let index = members.firstIndex(where: { $0.key == key }) { members[index].value = removing(members[index].value, at: path.dropFirst()) }
            return .object(members)
        case (.index(let index), .array(var elements)):
            if path.count == 1 { elements.remove(at: index); return .array(elements) }
            elements[index] = removing(elements[index], at: path.dropFirst())
            return .array(elements)
        default:
            return tree
        }
    }
}

/// Collects the names a `FieldSet` declares.
struct FieldNames: FieldVisitor {
    typealias Failure = Never
    var names: [String] = []
    mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value) { names.append(name.description) }
    mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value?) { names.append(name.description) }
    mutating func field<Value: FieldValue>(_ name: StaticString, _ value: inout Value, whenAbsent absent: Value) { names.append(name.description) }
}

extension FieldSet {
    /// Visits the fields with `names` (an existential's fields, opened).
    mutating func fieldNames(_ names: inout FieldNames) { fields(&names) }
}
