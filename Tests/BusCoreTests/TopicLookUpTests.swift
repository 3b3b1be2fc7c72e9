import BusCore
import Domain
import Testing
import Wire

/// The bus looks a topic's type part up once per message (`BusPolicy.lookUp`), by its length
/// and a few eight-byte words: for every topic, of the vocabulary or not, it must answer what
/// reading the type part byte by byte answers — who may publish it, and how its topic is keyed.
@Suite struct TopicLookUpTests {
    let policy = BusPolicy()

    /// The type part of `topic`: its bytes before the first `/`.
    static func typePart(_ topic: [UInt8]) -> String {
        String(decoding: Topic.typePart(topic), as: UTF8.self)
    }

    /// Topics around every type of the vocabulary: the type alone, with a key, with a stray
    /// byte, cut short, longer, and with each of its bytes changed in turn (each of the
    /// words compared).
    static var topics: [[UInt8]] {
        var topics: [[UInt8]] = [[], Array("/".utf8), Array("/device.tap".utf8), Array("device.tap one frame".utf8),
                                 Array("device.tapx/presentation-policy/ab".utf8), Array("device.interactions/x".utf8),
                                 Array("presentation.presented.extra.words.beyond/x".utf8), Array(String(repeating: "x", count: 40).utf8)]
        for type in MessageType.allCases {
            let bytes = Array(type.rawValue.utf8)
            topics += [bytes, bytes + Array("/key".utf8), bytes + [Topic.separator], bytes + [UInt8(ascii: "x")], Array(bytes.dropLast()),
                       bytes + [0], Array(type.rawValue.uppercased().utf8)]
            for index in bytes.indices {
                var changed = bytes
                changed[index] ^= 0x20
                topics += [changed, changed + Array("/alert/0123456789abcdef".utf8)]
            }
        }
        return topics
    }

    @Test func theLookUpAnswersWhatTheTypePartSays() {
        for topic in Self.topics {
            let type = Self.typePart(topic)
            let message = MessageType(rawValue: type)
            let looked = topic.withUnsafeBytes { policy.lookUp($0) }
            #expect(looked.length == Topic.typePart(topic).count)
            // Who may publish it: the declared publishers (nobody for a type outside the vocabulary).
            for role in Role.allCases {
                let allowed = topic.withUnsafeBytes { policy.mayPublish(role, topic: $0, type: looked) }
                #expect(allowed == Permissions.publishers(of: type).contains(role), "\(type) \(role)")
                #expect(allowed == topic.withUnsafeBytes { policy.mayPublish(role, topic: $0) })
            }
            // Keyed by device: a `.byDevice` type, or a type part that only starts with one whose
            // owner depends on its body.
            let device = message.flatMap { $0.addressing == .byDevice ? $0 : nil }
                ?? Routing.ownedByElement.sorted { $0.rawValue < $1.rawValue }.first { type.hasPrefix($0.rawValue) }
            #expect(looked.device?.type == device, "\(type)")
            #expect(looked.device?.ownedByElement == device.map(Routing.ownedByElement.contains), "\(type)")
            // Keyed by style: exactly a presentation's type.
            #expect(looked.styled == message.flatMap { Topic.styled.contains($0) ? $0 : nil }, "\(type)")
            // The header fields read for it follow.
            let fields = topic.withUnsafeBytes { policy.headerFields(from: .anonymous, topic: $0, type: looked) }
            #expect(fields.contains(.device) == (device != nil) && fields.contains(.element) == (looked.device?.ownedByElement == true))
        }
    }
}

/// The bus finds the owner of a tap or an interaction change on an element the product names by
/// the element's bytes (a table worked out with `Routing.owner`): for those and for any other
/// element — unknown, close to a known one, escaped, not ASCII — it keys the topic as `Routing`
/// says.
@Suite struct KnownOwnerTests {
    let policy = BusPolicy()

    /// A message of `type` from device `ipad` with `body`, as ours are written.
    static func json(_ type: MessageType, body: String) -> [UInt8] {
        Array(#"{"v":1,"type":"\#(type.rawValue)","id":"m1","correlationId":"m1","service":"gateway","device":"ipad","seq":1,"time":"2026-11-30T03:14:40.000Z","body":\#(body)}"#.utf8)
    }

    @Test func everyElementGoesToTheOwnerRoutingNames() {
        let known = ElementName.allCases.map(\.rawValue) + InputElement.weaponPickerButtons
        // Each known name with its first or last byte changed (each word compared).
        let close = known.flatMap { name in [String(name.dropLast()) + "#", "#" + String(name.dropFirst())] }
        let names = known + close + ["laser", "ad", "addd", "Add", "row:Cat-Bot", "a-name-longer-than-sixteen", "\u{212A}", "ﬁre", ""]
        let bucket = Topic.bucket(ofDevice: "ipad")
        for type in [MessageType.tap, .interaction] {
            for name in names {
                for point in [false, true] {
                    let owner = Routing.owner(of: type, element: name, point: point)!
                    let expected = Array("\(type.rawValue)/\(owner)/\(bucket)".utf8)
                    let pointText = point ? #","point":{"x":1,"y":2}"# : ""
                    // Written plainly, and with its first letter escaped (read whole, as the decoders do).
                    var bodies = [#"{"element":"\#(name)"\#(pointText)}"#]
                    if let first = name.unicodeScalars.first, first.isASCII {
                        bodies.append(#"{"element":"\u00\#(String(first.value, radix: 16))\#(String(name.unicodeScalars.dropFirst()))"\#(pointText)}"#)
                    }
                    for body in bodies {
                        let json = Self.json(type, body: body)
                        #expect(policy.deviceTopic(frames: [Array(type.rawValue.utf8), json]) == expected, "\(type.rawValue) \(body)")
                        #expect(policy.deviceTopic(frames: [expected, json]) == nil, "\(type.rawValue) \(body)")
                    }
                }
            }
        }
    }
}

/// A tap's body as ours write it, `{"element":"…"}`, is read at once when the header is read
/// straight through: it must give what the structural scan gives, for that body and for every
/// body that only starts like it.
@Suite struct WrittenTapBodyTests {
    @Test func theWrittenBodyReadsAsTheScanReadsIt() throws {
        let header = #"{"v":1,"type":"device.tap","id":"m1","correlationId":"m1","service":"gateway","device":"ipad","seq":1,"time":"2026-11-30T03:14:40.000Z","replyTo":"0123456789abcdef","body":"#
        let bodies = [
            #"{"element":"add"}"#, #"{"element":""}"#, #"{"element":"a\u0064d"}"#, #"{"element":"a\"d"}"#, #"{"element":"add" }"#,
            #"{"element":"add","point":{"x":1,"y":2}}"#, #"{"element":"add","point":null}"#, #"{"element":"add","element":"fire"}"#,
            #"{"element":5}"#, #"{"element":null}"#, #"{"element" :"add"}"#, #"{ "element":"add"}"#, #"{"element":"add"]"#,
            #"{"element":"add"}x"#, #"{"element":"add""#, #"{"element":"add"#, #"{"elements":"add"}"#, #"{"point":{"x":1,"y":2}}"#,
        ]
        for body in bodies {
            let bytes = Array((header + body + "}").utf8)
            // The scan: `replyTo` asked too, so nothing is read straight through.
            let scanned = EnvelopePeek(bytes, upTo: [.device, .element, .replyTo])
            let written = EnvelopePeek(bytes, upTo: [.device, .element])
            #expect(written == scanned, "\(body)")
            if body == #"{"element":"add"}"# {
                let peek = try #require(written)
                #expect(peek.bodyRead && !peek.point && peek.element.map { String(decoding: bytes[$0], as: UTF8.self) } == "add")
            }
        }
    }
}
