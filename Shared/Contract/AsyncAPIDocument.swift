import JSON
import Domain
import Wire

/// The AsyncAPI 3.0 document of the whole bus (`docs/asyncapi.yaml`), generated from the one
/// declaration of the vocabulary: `MessageType` lists the channels, its declarations
/// (`MessageType.spec`) give each its address and summary, and each body's JSON Schema
/// is recorded from `Envelope`'s and the body types' own `Decodable` code (`SchemaRecorder`).
/// What the decoders check beyond JSON types (non-empty ids, the trace formats) is stated in
/// `envelopeRefinements` beside it. `gateway contract` prints it; `Scripts/contract` writes it.
public enum AsyncAPIDocument {
    /// The messages a client sends, and the message that answers each (its operation's `reply`):
    /// an action is answered by the `ack` of the service that handles it; requests by their answer.
    public static let replies: [MessageType: MessageType] = {
        var replies: [MessageType: MessageType] = [.ping: .pong, .statusRequest: .statusReport, .snapshotRequest: .snapshot]
        for type in MessageType.allCases where type.isDeviceAction { replies[type] = .ack }
        return replies
    }()

    /// The id of a message type in channel, message and operation names (`device_tap`): AsyncAPI
    /// tools accept only letters, digits, `_` and `-` there.
    public static func identifier(_ type: MessageType) -> String {
        type.rawValue.replacingDots()
    }

    /// The schema name of each message type's body (`Tap` for `device.tap`), and every schema
    /// met while recording them, `Envelope` included.
    public static func recordSchemas() throws -> (bodies: [MessageType: String], components: [String: JSONValue]) {
        let recorder = SchemaRecorder()
        var bodies: [MessageType: String] = [:]
        for type in MessageType.allCases {
            let reference = try recorder.schema(of: type.spec.bodyType)
            guard case .string(let path)? = reference["$ref"] else {
                throw ContractError("the body of \(type.rawValue) is not a named type")
            }
            bodies[type] = String(path.split(separator: "/").last ?? "")
        }
        var components = recorder.components
        components["Envelope"] = refine(envelopeSchema)
        return (bodies, components)
    }

    /// The envelope's header as the codec writes it (`EnvelopeCodec.header`), and the body.
    private static var envelopeSchema: JSONValue {
        var properties: [JSONMember] = []
        var required: [String] = []
        for field in EnvelopeCodec.header {
            let schema: JSONValue = switch field.kind {
            case .string: ["type": "string"]
            case .integer: ["type": "integer", "minimum": 0]
            case .object: ["type": "object"]
            }
            properties.append(JSONMember(key: field.name, value: schema))
            if field.required { required.append(field.name) }
        }
        return ["type": "object", "properties": .object(properties), "required": .array(required.map(JSONValue.string)), "additionalProperties": false]
    }

    /// What `Envelope`'s decoder checks beyond JSON types, and what each header field means.
    static let envelopeRefinements: [String: JSONValue] = [
        "v": ["const": 1, "description": "The envelope format version: 1."],
        "type": [
            "enum": .array(MessageType.allCases.map { .string($0.rawValue) }),
            "description": "The message type. A sender writes it as the topic frame; the bus forwards the message on its channel's address (the type, '/' and the key it reads from the message), and a receiver checks that the topic's part before the first '/' is this type.",
        ],
        "id": ["minLength": 1, "description": "Unique id of this message (a random per-process prefix and a counter)."],
        "correlationId": ["minLength": 1, "description": "The id of the action that caused this message (an action's own id for the action)."],
        "service": ["minLength": 1, "description": "The sender: gateway, presentation-policy, roster, input-handling, bus, or another client."],
        "device": ["minLength": 1, "maxLength": 64, "description": "The simulated device the message concerns (1 to 64 bytes of UTF-8)."],
        "seq": ["description": "The sender's sequence number: one more for every message it publishes."],
        "time": [
            "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$",
            "description": "When it was sent: ISO 8601 in UTC, with milliseconds.",
        ],
        "traceparent": [
            "pattern": "^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$",
            "description": "W3C Trace Context of this message's span: 00-<trace id>-<span id>-<flags>. An action starts a trace; every message it causes has the same trace id and a span of its own.",
        ],
        "parentSpan": [
            "pattern": "^[0-9a-f]{16}$",
            "description": "The span id of the message that caused this one (absent on an action).",
        ],
        "replyTo": [
            "minLength": 1, "maxLength": 64, "pattern": "^[^/]*$",
            "description": "The address of the client that asked (1 to 64 bytes of UTF-8, no '/', no control characters; clients of this project use 16 random lowercase hex digits). Every message an action causes carries its replyTo, and answers (channels addressed type/{replyTo}) are published on type/<replyTo> (a presentation's on type/<style>/<replyTo>), which that client subscribes to. Absent from clients that subscribe by type.",
        ],
        "body": ["description": "The payload; its schema depends on type."],
    ]

    /// The channel address of `type` (`Topic`), and its parameter.
    static func address(_ type: MessageType) -> (address: String, parameters: JSONValue?) {
        switch type.addressing {
        case .broadcast:
            return (type.rawValue, nil)
        case .byDevice where Routing.ownedByElement.contains(type):
            return (type.rawValue + "/{owner}/{bucket}", [
                "owner": [
                    "description": .string("The service that owns what it touches (Routing.owner): input-handling for a button of the weapon picker\(type == .tap ? " or a point" : ""), presentation-policy for anything else. The bus sets it from the body's element\(type == .tap ? " (or point)" : "") whatever its sender wrote. Each owner subscribes to \(type.rawValue)/<owner> and receives only its own; subscribe to \(type.rawValue) for all."),
                    "location": "$message.payload#/body/element",
                ],
                "bucket": [
                    "description": .string("The device's bucket: FNV-1a (32 bits: offset basis 2166136261, prime 16777619) of the UTF-8 bytes of the envelope's device, modulo 256, as two lowercase hex digits. The bus sets it from the device whatever its sender wrote; a message without a device has the topic \(type.rawValue)/<owner>. A sharded instance subscribes to \(type.rawValue)/<owner>/<bucket> for each bucket it owns."),
                    "location": "$message.payload#/device",
                ],
            ])
        case .byDevice:
            return (type.rawValue + "/{bucket}", [
                "bucket": [
                    "description": .string("The device's bucket: FNV-1a (32 bits: offset basis 2166136261, prime 16777619) of the UTF-8 bytes of the envelope's device, modulo 256, as two lowercase hex digits. The bus sets it from the device whatever its sender wrote; a message without a device has the bare topic \(type.rawValue). Subscribe to \(type.rawValue) for every bucket, to \(type.rawValue)/<bucket> for one (a sharded instance, its own)."),
                    "location": "$message.payload#/device",
                ],
            ])
        case .toClient where Topic.styled.contains(type):
            return (type.rawValue + "/{style}/{replyTo}", [
                "style": [
                    "description": .string("The style of the presentation in the body (\(PresentationStyle.allCases.map(\.rawValue).joined(separator: " or ")), written by the service that made it, so that a reader of one style subscribes to \(type.rawValue)/<style>: input-handling subscribes to \(type.rawValue)/alert and no popover wakes it."),
                    "location": "$message.payload#/body/presentation/style",
                ],
                "replyTo": [
                    "description": .string("The replyTo of the action that caused it, which its sender (a component) writes as it inherited it: the asking client subscribes to \(type.rawValue)/<style>/<its address> for each style and hears only its own. Without a replyTo (or one that is not an address) the topic is \(type.rawValue)/<style>; a subscriber to \(type.rawValue) hears every client's."),
                    "location": "$message.payload#/replyTo",
                ],
            ])
        case .toInstance:
            return (type.rawValue + "/{service}/{instance}", [
                "service": [
                    "description": .string("The sharded service whose instances exchange it, written by its sender."),
                    "location": "$message.payload#/service",
                ],
                "instance": [
                    "description": .string("The instance it is for (the body's standby), written by its sender: each instance of a sharded service subscribes to \(type.rawValue)/<service>/<itself>."),
                    "location": "$message.payload#/body/standby",
                ],
            ])
        case .toClient:
            return (type.rawValue + "/{replyTo}", [
                "replyTo": [
                    "description": .string("The replyTo of the action that caused it, which its sender (a component) writes as it inherited it: the asking client subscribes to \(type.rawValue)/<its address> and hears only its own. Without a replyTo (or one that is not an address) the topic is the bare \(type.rawValue); a subscriber to \(type.rawValue) hears every client's."),
                    "location": "$message.payload#/replyTo",
                ],
            ])
        }
    }

    private static func refine(_ envelope: JSONValue) -> JSONValue {
        guard case .object(var properties)? = envelope["properties"] else { return envelope }
        for index in properties.indices {
            let key = properties[index].key
            var schema = key == "body" ? ["type": "object"] : properties[index].value
            if case .object(let extra)? = envelopeRefinements[key] {
                for member in extra { schema = schema.setting(member.key, member.value) }
            }
            properties[index].value = schema
        }
        return envelope.setting("properties", .object(properties))
    }

    /// The whole document.
    public static func build() throws -> JSONValue {
        let (bodies, components) = try recordSchemas()
        var channels: [JSONMember] = []
        var operations: [JSONMember] = []
        var messages: [JSONMember] = []
        for type in MessageType.allCases {
            let id = identifier(type)
            let messageReference: JSONValue = ["$ref": .string("#/channels/\(id)/messages/\(id)")]
            let (address, parameters) = address(type)
            var channel: JSONValue = [
                "address": .string(address),
                "title": .string(type.rawValue),
                "messages": .object([JSONMember(key: id, value: ["$ref": .string("#/components/messages/\(id)")])]),
            ]
            if let parameters { channel = channel.setting("parameters", parameters) }
            channels.append(JSONMember(key: id, value: channel))
            messages.append(JSONMember(key: id, value: [
                "name": .string(type.rawValue),
                "title": .string(type.rawValue),
                "summary": .string(type.spec.summary),
                "contentType": "application/json",
                "correlationId": ["$ref": "#/components/correlationIds/action"],
                "payload": ["allOf": [
                    SchemaRecorder.reference("Envelope"),
                    [
                        "type": "object",
                        "properties": ["type": ["const": .string(type.rawValue)], "body": SchemaRecorder.reference(bodies[type] ?? "")],
                        "required": ["type", "body"],
                    ],
                ]],
                "x-body-type": .string(bodies[type] ?? ""),
            ]))
            if let reply = replies[type] {
                let replyId = identifier(reply)
                operations.append(JSONMember(key: "send_" + id, value: [
                    "action": "send",
                    "channel": ["$ref": .string("#/channels/\(id)")],
                    "summary": .string(type.isDeviceAction
                        ? "A device action; presentation-policy handles it and answers with an ack listing what it published and passed on."
                        : "A request, answered by \(reply.rawValue) with the request's id as correlationId."),
                    "messages": [messageReference],
                    "reply": [
                        "channel": ["$ref": .string("#/channels/\(replyId)")],
                        "messages": [["$ref": .string("#/channels/\(replyId)/messages/\(replyId)")]],
                    ],
                ]))
            }
            operations.append(JSONMember(key: "receive_" + id, value: [
                "action": "receive",
                "channel": ["$ref": .string("#/channels/\(id)")],
                "summary": .string(type.addressing == .broadcast
                    ? "Every subscriber to a prefix of \(type.rawValue) receives it."
                    : "Every subscriber to a prefix of \(type.rawValue) receives it, whatever its key; a subscriber to \(type.rawValue)/<\(type.addressing == .byDevice ? (Routing.ownedByElement.contains(type) ? "owner" : "bucket") : "replyTo")> only that key's."),
                "messages": [messageReference],
            ]))
        }
        let schemas = components.keys.sorted { ($0 == "Envelope" ? "" : $0) < ($1 == "Envelope" ? "" : $1) }
            .map { JSONMember(key: $0, value: components[$0]!) }
        return [
            "asyncapi": "3.0.0",
            "info": [
                "title": "Monster Bus",
                "version": .string(MonsterBus.version),
                "description": .string(description),
            ],
            "defaultContentType": "application/json",
            "servers": [
                "frontend": server(
                    port: 5555, socket: "XSUB", peer: "PUB", variable: "BUS_FRONTEND",
                    description: "The bus's XSUB socket: every publisher connects a PUB socket here and sends two frames, the topic then the JSON envelope."),
                "backend": server(
                    port: 5556, socket: "XPUB", peer: "SUB", variable: "BUS_BACKEND",
                    description: "The bus's XPUB socket: every subscriber connects a SUB socket here and subscribes to topic prefixes (device., presentation., …; empty for everything)."),
            ],
            "channels": .object(channels),
            "operations": .object(operations),
            "components": [
                "messages": .object(messages),
                "schemas": .object(schemas),
                "correlationIds": [
                    "action": [
                        "description": "The id of the action that caused the message: everything an action causes carries it.",
                        "location": "$message.payload#/correlationId",
                    ],
                ],
                "securitySchemes": [
                    "curve": [
                        "type": "asymmetricEncryption",
                        "description": "CurveZMQ (ZMTP CURVE mechanism, RFC 26): the bus's sockets are CURVE servers; a client needs its own key pair, the bus's public key, and its public certificate in the bus's authorized/ folder (ZAP). Without BUS_KEYS_DIR the bus runs in plaintext (the NULL mechanism).",
                        "x-zeromq-mechanism": "CURVE",
                        "x-key-files": "ZPL certificates: NAME.key (public-key, Z85) and NAME.key_secret (secret-key), as czmq and pyzmq write them; the role is metadata/role.",
                    ],
                ],
            ],
        ]
    }

    private static let description = """
        Every message is two ZeroMQ frames: the topic (the message type, so subscribers filter by prefix) and the JSON envelope. \
        A message that cannot be read is answered with an error naming what is wrong. Every service acknowledges each message it \
        handles with an ack listing the ids it published and those it passed on to another service, which acknowledges in turn. \
        Generated from the Swift vocabulary (gateway contract); do not edit by hand: run Scripts/contract.
        """

    private static func server(port: Int, socket: String, peer: String, variable: String, description: String) -> JSONValue {
        [
            "host": .string("127.0.0.1:\(port)"),
            "protocol": "zmtp",
            "protocolVersion": "3.1",
            "description": .string(description),
            "security": [["$ref": "#/components/securitySchemes/curve"]],
            "x-zeromq": [
                "socketType": .string(socket),
                "peerSocketType": .string(peer),
                "endpoint": .string("tcp://127.0.0.1:\(port)"),
                "environment": .string(variable),
                "frames": ["topic (the message type, UTF-8)", "JSON envelope (UTF-8)"],
                "maxMessageBytes": 65536,
                "maxMessageBytesEnvironment": "BUS_MAX_MESSAGE_BYTES",
            ],
        ]
    }

    /// The document as YAML, as `docs/asyncapi.yaml` holds it.
    public static func yaml() throws -> String {
        "# Generated by `gateway contract` (Scripts/contract) from the vocabulary in Shared/Wire: do not edit.\n" + YAMLWriter.write(try build())
    }
}

/// The contract could not be generated, and why.
public struct ContractError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}

extension String {
    func replacingDots() -> String { String(map { $0 == "." ? "_" : $0 }) }
}
