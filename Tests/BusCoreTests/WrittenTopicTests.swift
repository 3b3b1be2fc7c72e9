@testable import BusCore
import BusCore
import Domain
import Foundation
import Testing
import Wire

/// The bus tells in place that a topic as ours write it is already the one a message goes on
/// (`BusPolicy.keepsWrittenTopic`), before making any key: wherever it says so, the whole read
/// (`rewrittenTopic`) must keep the topic too, for forged and odd layouts as for ours — and it
/// must say so for ours, or the bus would pay for both.
@Suite struct WrittenTopicTests {
    let policy = BusPolicy()
    static let address = "0123456789abcdef"

    /// A device request's JSON as ours write it, with `device` and `body` as given.
    static func json(_ type: MessageType, device: String = #""ipad""#, body: String, header: String = "") -> String {
        #"{"v":1,"type":"\#(type.rawValue)","id":"m1","correlationId":"m1","service":"gateway","device":\#(device)\#(header),"seq":1,"time":"2026-11-30T03:14:40.000Z","replyTo":"\#(address)","body":\#(body)}"#
    }

    /// `key` and keys close to it: each byte changed, cut short, one byte more, empty, doubled.
    static func around(_ key: String) -> [String] {
        let bytes = Array(key.utf8)
        var keys = [key, "", key + "x", key + "/", String(key.dropLast()), "/" + key, key.uppercased(), key + "/" + key]
        for index in bytes.indices {
            for change: UInt8 in [0x20, 0x01] {
                var changed = bytes
                changed[index] ^= change
                keys.append(String(decoding: changed, as: UTF8.self))
            }
        }
        return keys
    }

    /// What the bus answers for `topic` and `json` from `sender`, both ways: the in-place check
    /// and the whole read, with the peek the proxy gives them.
    func check(_ topic: String, _ json: String, from sender: BusPolicy.Sender = .anonymous) -> (kept: Bool, rewritten: [UInt8]?, forwarded: [UInt8]?) {
        let topicBytes = Array(topic.utf8), jsonBytes = Array(json.utf8)
        return topicBytes.withUnsafeBytes { t in
            jsonBytes.withUnsafeBytes { j in
                let type = policy.lookUp(t)
                let (_, peek) = policy.judge(from: sender, topic: t, frames: 2, json: j, type: type)
                return (policy.keepsWrittenTopic(topic: t, peek: peek, json: j, type: type),
                        policy.rewrittenTopic(topic: t, peek: peek, json: j, type: type),
                        policy.deviceTopic(topic: t, peek: peek, json: j, type: type))
            }
        }
    }

    @Test func oursAreKeptInPlace() throws {
        let codec = EnvelopeCodec()
        let elements = ElementName.allCases.map(\.rawValue) + InputElement.weaponPickerButtons
        for device in ["ipad", "a", "device-with-a-rather-long-identifier-0123456789"] {
            for tap in elements.map({ Tap(element: $0) }) + [Tap(point: Point(x: 3, y: 4))] {
                let envelope = Envelope(id: "m1", correlationId: "m1", service: "gateway", device: device, seq: 1,
                                        time: "2026-11-30T03:14:40.000Z", replyTo: Self.address, body: .tap(tap))
                let frames = try codec.frames(envelope)
                let topic = String(decoding: frames[0], as: UTF8.self), json = String(decoding: frames[1], as: UTF8.self)
                let answer = check(topic, json)
                // A tap at a point has no element, and an element longer than the owners table's 16 bytes is
                // not in it: read the whole way.
                #expect(answer.kept == (tap.element.map { $0.utf8.count <= 16 } ?? false) && answer.rewritten == nil && answer.forwarded == nil, "\(topic) \(json)")
            }
        }
        for type in [MessageType.presented, .dismissed] {
            for style in PresentationStyle.allCases {
                let frames = try codec.frames(StyledTopicTests.envelope(type, style))
                let answer = check(String(decoding: frames[0], as: UTF8.self), String(decoding: frames[1], as: UTF8.self))
                #expect(answer.kept && answer.rewritten == nil && answer.forwarded == nil, "\(type) \(style)")
            }
        }
    }

    @Test func whatIsKeptInPlaceTheWholeReadKeepsForEveryLayout() throws {
        var cases: [(topic: String, json: String)] = []
        // Device requests: ours and forged or odd bodies and headers, each with its right key and
        // keys close to it, on its type, a longer type and a type that only starts like it.
        let bodies = [#"{"element":"add"}"#, #"{"element":"add","point":{"x":1,"y":2}}"#, #"{"element":"add","point":null}"#,
                      #"{"element":"a\u0064d"}"#, #"{"element":"weapon-picker-1"}"#, #"{"element":"laser"}"#, #"{"element":""}"#,
                      #"{"element":5}"#, #"{}"#, #"{"point":{"x":1,"y":2}}"#, #"{"element":"add","element":"fire"}"#, #"{ "element":"add"}"#]
        let devices = [#""ipad""#, #""ip\u0061d""#, #""""#, "5", "null", #""ipad","device":"other""#]
        for type in [MessageType.tap, .interaction] {
            for body in bodies {
                for device in devices {
                    for header in ["", #","device":"other""#] {
                        let json = Self.json(type, device: device, body: body, header: header)
                        let owner = Routing.owner(of: type, element: "add", point: body.contains(#""point":{"#)) ?? "input-handling"
                        for key in Self.around("\(owner)/\(Topic.bucket(ofDevice: "ipad"))") + Self.around(Topic.bucket(ofDevice: "ipad")) {
                            for name in [type.rawValue, type.rawValue + "x", String(type.rawValue.dropLast())] {
                                cases.append(("\(name)/\(key)", json))
                            }
                        }
                        cases.append((type.rawValue, json))
                    }
                }
            }
        }
        // Other device requests (keyed by the bucket alone).
        for device in devices {
            let json = Self.json(.rotate, device: device, body: #"{"orientation":"portrait"}"#)
            for key in Self.around(Topic.bucket(ofDevice: "ipad")) { cases.append(("\(MessageType.rotate.rawValue)/\(key)", json)) }
        }
        // Presentations: ours, and styles unknown, escaped, cased otherwise, of another type, or
        // bodies read whole.
        let codec = EnvelopeCodec()
        var presentations: [String] = []
        for type in [MessageType.presented, .dismissed] {
            for style in PresentationStyle.allCases {
                let json = String(decoding: try codec.encode(StyledTopicTests.envelope(type, style)), as: UTF8.self)
                presentations += [json, json.replacingOccurrences(of: #""style":"\#(style.rawValue)""#, with: #""style":"modal""#),
                                  json.replacingOccurrences(of: #""style":"\#(style.rawValue)""#, with: #""style":"\#(style.rawValue.uppercased())""#),
                                  json.replacingOccurrences(of: #""style":"\#(style.rawValue)""#, with: #""style":"\u0061lert""#),
                                  json.replacingOccurrences(of: #""style":"\#(style.rawValue)""#, with: #""style":"""#),
                                  json.replacingOccurrences(of: #""style":"\#(style.rawValue)""#, with: #""style":5"#),
                                  json.replacingOccurrences(of: #"{"v":1,"#, with: #"{ "v":1,"#), "", "{", "[]"]
            }
        }
        for json in presentations {
            for type in [MessageType.presented, .dismissed] {
                for style in PresentationStyle.allCases {
                    for key in Self.around("\(style.rawValue)/\(Self.address)") + Self.around(style.rawValue) {
                        cases.append(("\(type.rawValue)/\(key)", json))
                    }
                }
                cases.append((type.rawValue, json))
            }
        }
        var kept = 0
        for (topic, json) in cases {
            for sender in [BusPolicy.Sender.anonymous, .client(.gateway)] {
                let answer = check(topic, json, from: sender)
                #expect(answer.forwarded == answer.rewritten, "\(topic) \(json)")
                if answer.kept {
                    kept += 1
                    #expect(answer.rewritten == nil, "\(topic) \(json)")
                }
            }
        }
        // Both answers occur: the cases test the check, not only its fallback.
        #expect(kept > 0 && kept < cases.count)
    }
}
