import Testing
import TestTiers
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
}
