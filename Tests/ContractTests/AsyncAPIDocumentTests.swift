import Contract
import Domain
import JSON
import Foundation
import Testing
import Wire
import TestTiers

/// The AsyncAPI document follows the code: regenerated in memory, it must equal the checked-in
/// docs/asyncapi.yaml, and its schemas are what the codec reads.
@Suite(.tags(.unit)) struct AsyncAPIDocumentTests {
    static let checkedIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/asyncapi.yaml")

    @Test func theCheckedInDocumentIsWhatTheCodeGenerates() throws {
        let generated = try AsyncAPIDocument.yaml()
        let file = try String(contentsOf: Self.checkedIn, encoding: .utf8)
        let firstDifference = zip(generated.split(separator: "\n"), file.split(separator: "\n")).enumerated()
            .first { $0.element.0 != $0.element.1 }
            .map { "line \($0.offset + 1): generated «\($0.element.0)», file «\($0.element.1)»" } ?? "lengths differ"
        let upToDate = generated == file  // (not compared inside #expect, which would print both documents)
        #expect(upToDate, "docs/asyncapi.yaml is out of date with the Swift vocabulary (run Scripts/contract): \(firstDifference)")
    }

    @Test func everyMessageTypeHasAChannelAddressedByItsTopicAndAMessageWithAPayload() throws {
        let document = try AsyncAPIDocument.build()
        for type in MessageType.allCases {
            let id = AsyncAPIDocument.identifier(type)
            let address: String = switch type.addressing {
            case .broadcast: type.rawValue
            case .byDevice: type.rawValue + (Routing.ownedByElement.contains(type) ? "/{owner}/{bucket}" : "/{bucket}")
            case .toClient: type.rawValue + (Topic.styled.contains(type) ? "/{style}/{replyTo}" : "/{replyTo}")
            case .toInstance: type.rawValue + "/{service}/{instance}"
            }
            #expect(document["channels"]?[id]?["address"] == .string(address))
            #expect((document["channels"]?[id]?["parameters"] != nil) == (type.addressing != .broadcast))
            #expect(document["components"]?["messages"]?[id]?["payload"] != nil)
            #expect(document["components"]?["messages"]?[id]?["correlationId"] != nil)
        }
    }

    @Test func actionsAndRequestsHaveAReply() throws {
        let operations = try AsyncAPIDocument.build()["operations"]
        #expect(operations?["send_device_tap"]?["reply"]?["channel"]?["$ref"] == "#/channels/ack")
        #expect(operations?["send_sys_ping"]?["reply"]?["channel"]?["$ref"] == "#/channels/sys_pong")
        #expect(operations?["send_roster_snapshot_request"]?["reply"]?["channel"]?["$ref"] == "#/channels/roster_snapshot")
        #expect(operations?["send_presentation_presented"] == nil)
    }

    @Test func theServersAreTheBusSocketsOnZMTPWithCurve() throws {
        let servers = try AsyncAPIDocument.build()["servers"]
        #expect(servers?["frontend"]?["protocol"] == "zmtp")
        #expect(servers?["frontend"]?["x-zeromq"]?["socketType"] == "XSUB")
        #expect(servers?["backend"]?["x-zeromq"]?["socketType"] == "XPUB")
        #expect(servers?["backend"]?["security"] == [["$ref": "#/components/securitySchemes/curve"]])
    }
}

/// The recorder reads the schema from the types' own declarations (`FieldSet.fields`).
@Suite(.tags(.unit)) struct SchemaRecorderTests {
    struct Inner: FieldSet {
        var x: Double
        static var placeholder: Inner { Inner(x: 0) }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) { try fields.field("x", &x) }
    }

    struct Sample: FieldSet {
        var name: String
        var count: UInt64
        var inner: Inner?
        var tags: [String]
        var orientation: Orientation
        var extra: [String: Int]
        var left: Double
        static var placeholder: Sample { Sample(name: "", count: 0, inner: nil, tags: [], orientation: .portrait, extra: [:], left: 0) }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("name", &name)
            try fields.field("count", &count)
            try fields.field("inner", &inner)
            try fields.field("tags", &tags)
            try fields.field("orientation", &orientation)
            try fields.field("extra", &extra)
            try fields.field("left", &left, whenAbsent: 0)
        }
    }

    @Test func requiredAndOptionalFieldsComeFromTheDeclaration() throws {
        let recorder = SchemaRecorder()
        let schema = try recorder.schema(of: Sample.self)
        #expect(schema == ["$ref": "#/components/schemas/SchemaRecorderTestsSample"])
        let sample = try #require(recorder.components["SchemaRecorderTestsSample"])
        #expect(sample["required"] == ["name", "count", "tags", "orientation", "extra"])
        #expect(sample["properties"]?["inner"] == ["$ref": "#/components/schemas/SchemaRecorderTestsInner"])
        #expect(sample["properties"]?["tags"] == ["type": "array", "items": ["type": "string"]])
        #expect(sample["properties"]?["count"]?["minimum"] == 0)
        #expect(sample["properties"]?["extra"] == ["type": "object", "additionalProperties": ["type": "integer"]])
        #expect(sample["properties"]?["left"] == ["type": "number"])
        #expect(sample["additionalProperties"] == false)
        #expect(recorder.components["Orientation"] == ["type": "string", "enum": ["portrait", "landscape"]])
    }

    @Test func theBodiesFollowTheSwiftTypes() throws {
        let (bodies, components) = try AsyncAPIDocument.recordSchemas()
        #expect(bodies[.tap] == "Tap")
        #expect(components["Tap"]?["required"] == nil)  // element, point and profile are all optional
        #expect(components["Rotate"]?["required"] == ["orientation"])
        #expect(components["Presentation"]?["properties"]?["arrowDirection"]?["type"] == "integer")
        #expect(components["Envelope"]?["properties"]?["traceparent"]?["pattern"] != nil)
        #expect(components["Envelope"]?["required"] == ["v", "type", "service", "correlationId", "body", "id", "seq", "time"])
    }
}

/// The Swift validator behind `gateway watch --validate`.
@Suite(.tags(.unit)) struct SchemaValidatorTests {
    let validator: SchemaValidator
    init() throws { validator = try SchemaValidator.generated() }

    func envelope(_ body: JSONValue, type: String = "device.rotate") -> JSONValue {
        [
            "v": 1, "type": .string(type), "id": "a-1", "correlationId": "a-1", "service": "gateway", "device": "ipad",
            "seq": 1, "time": "2026-11-30T03:31:37.994Z", "traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "body": body,
        ]
    }

    @Test func aConformingMessagePasses() {
        #expect(validator.problems(inEnvelope: envelope(["orientation": "landscape"])) == [])
    }

    @Test func missingUnknownAndWrongFieldsAreNamed() {
        #expect(validator.problems(inEnvelope: envelope([:])) == ["body.orientation: missing (required)"])
        #expect(validator.problems(inEnvelope: envelope(["orientation": "sideways"])).first?.hasPrefix("body.orientation: \"sideways\" is not one of") == true)
        #expect(validator.problems(inEnvelope: envelope(["orientation": "portrait", "tilt": 3])) == ["body.tilt: not in the contract"])
        #expect(validator.problems(inEnvelope: envelope(["orientation": "portrait"]).setting("seq", "7")) == ["seq: should be integer, not a string"])
        #expect(validator.problems(inEnvelope: envelope(["orientation": "portrait"]).setting("traceparent", "00-xyz")).first?.hasPrefix("traceparent:") == true)
        #expect(validator.problems(inEnvelope: envelope([:], type: "no.such")) == ["unknown message type 'no.such'"])
    }
}

/// What the recorder cannot follow, it says so rather than guess.
@Suite(.tags(.unit)) struct SchemaRecorderLimitsTests {
    /// A value whose reading refuses the blank the recorder answers with.
    struct Checked: FieldValue {
        var version: String
        static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> Checked {
            let text = try reader.readString()
            guard text.contains(".") else { throw reader.invalid("not a version") }
            return Checked(version: text)
        }
        func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) { writer.writeString(version) }
    }

    @Test func aTypeThatChecksItsValueMustStateItsSchema() {
        let error = #expect(throws: ContractError.self) { try SchemaRecorder().schema(of: Checked.self) }
        #expect(error?.description.contains("SchemaDescribing") == true)
    }
}
