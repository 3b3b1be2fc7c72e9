@testable import Bench
@testable import ZeroMQ
import Domain
import Runtime
import Testing
import TestTiers

/// The product client's first read of a reply (`ReplyHeader`): the correlation id and the sender
/// compared as bytes in place, against the full path (the header's text made, then compared).
@Suite(.tags(.unit)) struct ReplyHeaderTests {
    /// A received message of a topic frame and `json`.
    static func message(_ topic: String, _ json: String) -> ReceivedMessage {
        var message = ReceivedMessage()
        for frame in [Array(topic.utf8), Array(json.utf8)] { frame.withUnsafeBytes { message.append($0) } }
        return message
    }

    /// An ack's JSON as our encoders write it, with `correlation` and `sender` as they are (no escaping).
    static func header(_ correlation: String, _ sender: String) -> String {
        #"{"v":1,"type":"ack","id":"p-9","correlationId":""# + correlation + #"","service":""# + sender
            + #"","seq":3,"time":"2026-11-30T03:14:39.123Z","body":{}}"#
    }

    @Test func correlationAndSenderAreComparedAsTheirTextIs() throws {
        let values = ["3f9a0c2b7d41e855-17", "3f9a0c2b7d41e855-1", "3f9a0c2b7d41e855-170", "3f9a0c2b7d41e856-17", "x",
                      "presentation-policy", "presentation-polic", "presentation-policz", "é-ü-漢"]
        // Texts a native string holds contiguously, and one that is a slice's copy.
        let texts = values + ["", String(Substring("..presentation-policy..".dropFirst(2).dropLast(2)))]
        for correlation in values {
            for sender in values where !sender.contains("\u{0}") {
                let json = Self.header(correlation, sender)
                let message = Self.message("ack/abc", json)
                let reply = try #require(ReplyHeader(message))
                #expect(reply.type == .ack)
                for text in texts {
                    #expect(reply.correlates(to: text) == (reply.correlationId == text && Array(reply.correlationId.utf8) == Array(text.utf8)), "\(correlation) \(text)")
                    #expect(reply.isFrom(text) == (Array(reply.service.utf8) == Array(text.utf8)), "\(sender) \(text)")
                }
            }
        }
    }

    @Test func anEmptyCorrelationIdIsOnlyTheEmptyText() throws {
        let json = Self.header("", "presentation-policy")
        let reply = try #require(ReplyHeader(Self.message("ack", json)))
        #expect(reply.correlates(to: ""))
        #expect(!reply.correlates(to: "a"))
        #expect(reply.isFrom("presentation-policy"))
    }

    @Test func anEscapedHeaderIsComparedAsWrittenNotAsDecoded() throws {
        // `a\"b` on the wire: its bytes, not the text it decodes to, are what is compared.
        let json = Self.header(#"a\"b"#, "s")
        let reply = try #require(ReplyHeader(Self.message("ack", json)))
        #expect(!reply.correlates(to: "a\"b"))
        #expect(reply.correlates(to: #"a\"b"#))
    }
}

/// Each reply type's own bit (`ReplyHeader.typeBit`), for the client's sets of types in one word.
@Suite(.tags(.unit)) struct ReplyTypeBitTests {
    @Test func everyTypeReadsAsItselfWithABitOfItsOwn() throws {
        var bits: UInt64 = 0
        for type in MessageType.allCases {
            let json = ReplyHeaderTests.header("c", "s")
            for topic in [type.rawValue, type.rawValue + "/abc"] {
                let reply = try #require(ReplyHeader(ReplyHeaderTests.message(topic, json)), "\(topic)")
                #expect(reply.type == type)
                #expect(reply.typeBit.nonzeroBitCount == 1)
                #expect(topic.contains("/") || bits & reply.typeBit == 0, "\(type) shares its bit")
                bits |= reply.typeBit
            }
        }
        #expect(bits.nonzeroBitCount == MessageType.allCases.count)
        #expect(ReplyHeader(ReplyHeaderTests.message("no.such.type", ReplyHeaderTests.header("c", "s"))) == nil)
    }
}
