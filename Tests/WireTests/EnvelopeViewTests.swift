import Testing
import TestTiers
import TestSupport
import JSON
import Wire

/// What the bus reads of a header to key a device's request, whatever the members' order and
/// the whitespace between the tokens.
@Suite(.tags(.unit)) struct EnvelopeViewTests {
    /// A tap on `weapon` as the project's writers write it.
    static let inOrder = #"{"v":1,"type":"device.tap","id":"a-1","correlationId":"a-1","service":"python-client","seq":4,"time":"2026-12-01T19:10:52.303Z","device":"dbg-pad","replyTo":"6f8aa78f0380ff25","body":{"element":"weapon","point":null}}"#
    /// The same tap with every object's members reversed and whitespace around every token.
    static let reordered = "\n \t{\n\t\"replyTo\" :  \"6f8aa78f0380ff25\" ,\r\n\n\t\"body\" :  {\n\t\t\"point\" :  null ,\r\n\n\t\t\"element\" :  \"weapon\"\n\t} ,\r\n\n\t\"time\" :  \"2026-12-01T19:10:52.303Z\" ,\r\n\n\t\"seq\" :  4 ,\r\n\n\t\"device\" :  \"dbg-pad\" ,\r\n\n\t\"service\" :  \"python-client\" ,\r\n\n\t\"correlationId\" :  \"a-1\" ,\r\n\n\t\"id\" :  \"a-1\" ,\r\n\n\t\"type\" :  \"device.tap\" ,\r\n\n\t\"v\" :  1\n} \r\n"

    func read(_ json: String) -> (device: String?, element: String?, id: String?, point: Bool)? {
        Array(json.utf8).withUnsafeBytes { bytes in
            guard let view = EnvelopeView(bytes, parts: [.device, .element, .id, .service]) else { return nil }
            func text(_ key: JSONReader.Key?) -> String? { key.map { String(decoding: bytes[$0.range], as: UTF8.self) } }
            return (text(view.device), text(view.element), text(view.id), view.point)
        }
    }

    @Test func membersInAnyOrderAndSpacingAreReadAlike() throws {
        let plain = try #require(read(Self.inOrder))
        let padded = try #require(read(Self.reordered), "the reordered, padded header was not read")
        #expect(plain.device == "dbg-pad" && plain.element == "weapon" && plain.id == "a-1" && !plain.point)
        #expect(padded.device == plain.device && padded.element == plain.element && padded.id == plain.id && padded.point == plain.point)
    }

    /// The parts read from `json` as text (`nil`: absent), all of them asked for.
    func parts(_ json: String) -> [String?]? {
        Array(json.utf8).withUnsafeBytes { bytes in
            guard let view = EnvelopeView(bytes, parts: [.device, .service, .correlationId, .replyTo, .id, .element]) else { return nil }
            func text(_ key: JSONReader.Key?) -> String? { key.map { String(decoding: bytes[$0.range], as: UTF8.self) } }
            return [text(view.device), text(view.service), text(view.correlationId), text(view.replyTo), text(view.id), text(view.element), view.point ? "point" : nil]
        }
    }

    @Test func everyOrderSpacingAndAbsenceReadsAsTheCodecsOrder() throws {
        // The codec's order (read key by key in one step each) against shuffles of the same
        // members with random spacing, an optional member or two left out, and a repeat of a
        // member after its first (whose first value counts).
        var random = SplitMix(seed: 7)
        let spaces = ["", " ", "\n\t", "\r\n  "]
        for round in 0..<300 {
            var members: [(String, String)] = [
                ("v", "1"), ("type", #""device.tap""#), ("device", #""pad-\#(round)""#), ("service", #""gateway""#),
                ("correlationId", #""c-\#(round)""#), ("body", #"{"element":"weapon","point":null}"#),
                ("replyTo", #""6f8aa78f0380ff25""#), ("id", #""i-\#(round)""#), ("seq", "4"), ("time", #""2026-12-01T19:10:52.303Z""#),
            ]
            if round % 3 == 1 { members.removeAll { $0.0 == "device" } }
            if round % 5 == 2 { members.removeAll { $0.0 == "replyTo" } }
            let written = "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
            let expected = try #require(parts(written), "the codec's order was not read")
            if round % 4 == 3 { members.shuffle(using: &random) }
            if round % 7 == 0, let at = members.firstIndex(where: { $0.0 == "service" }) {
                members.insert(("service", #""forged""#), at: Int.random(in: (at + 1)...members.count, using: &random))
            }
            func space() -> String { spaces[Int.random(in: 0..<spaces.count, using: &random)] }
            let text = space() + "{" + members.map { space() + "\"\($0.0)\"" + space() + ":" + space() + $0.1 + space() }.joined(separator: ",") + "}" + space()
            #expect(parts(text) == expected, "\(text)")
        }
    }

    @Test func aBodysMembersAreTakenWhereverTheyFirstAppear() throws {
        func body(_ body: String) -> (element: String?, point: Bool, style: String?)? {
            let json = #"{"v":1,"type":"device.tap","device":"pad","service":"gateway","correlationId":"c","body":"# + body + "}"
            return Array(json.utf8).withUnsafeBytes { bytes in
                guard let view = EnvelopeView(bytes, parts: [.device, .element, .style]) else { return nil }
                return (view.element.map { String(decoding: bytes[$0.range], as: UTF8.self) }, view.point, view.style.map { String(decoding: bytes[$0.range], as: UTF8.self) })
            }
        }
        let cases: [(String, String?, Bool, String?)] = [
            (#"{"element":"weapon","point":null}"#, "weapon", false, nil),
            (#"{"point":null,"element":"weapon"}"#, "weapon", false, nil),
            (#"{ "profile" : {"element":"inner","point":[1]} , "element" : "weapon" , "element":"second" }"#, "weapon", false, nil),
            (#"{"point":{"x":1,"y":2},"point":null}"#, nil, true, nil),
            (#"{"\u0065lement":"weapon"}"#, "weapon", false, nil),
            (#"{"element":7,"element":"late"}"#, nil, false, nil),
            (#"{"reason":"tap","presentation":{"content":"add","style":"popover"},"presentation":{"style":"alert"}}"#, nil, false, "popover"),
            (#"{}"#, nil, false, nil),
        ]
        for (text, element, point, style) in cases {
            let read = try #require(body(text), "\(text)")
            #expect(read.element == element && read.point == point && read.style == style, "\(text)")
        }
    }
}
