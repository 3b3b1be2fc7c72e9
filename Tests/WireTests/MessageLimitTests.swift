import Domain
import Testing
import TestSupport
import Wire
import TestTiers

/// docs/messages.md, the envelope: a message over the limit (64 KiB by default) is refused — one byte over,
/// not only far over — and one exactly at the limit is read.
@Suite(.tags(.unit)) struct MessageLimitTests {
    @Test func aMessageOneByteOverTheLimitIsRefusedAndOneAtTheLimitIsRead() throws {
        let codec = EnvelopeCodec()
        let envelope = Samples.envelope(.select(Select(monster: "Dog-Bot")))
        let json = try codec.encode(envelope)
        let limit = json.count + 100
        let limited = EnvelopeCodec(maxMessageBytes: limit)
        // JSON allows white space after the document: pad to exactly the limit, then one more.
        let atLimit = json + [UInt8](repeating: 0x20, count: limit - json.count)
        #expect(try limited.decode(atLimit) == envelope)
        let error = try #require(throws: MessageError.self) { try limited.decode(atLimit + [0x20]) }
        #expect(error.code == .tooLarge)
        #expect(EnvelopeCodec().maxMessageBytes == 65_536)
    }
}
