import Testing
@testable import MonsterKit

/// A receiver that keeps the last `replyTo` it read decodes every message as one that does not:
/// the same address again is the same text, another address (or none) is read as it is.
@Suite struct RecentTextTests {
    @Test func aKeptReplyToNeverStandsForAnother() throws {
        let codec = EnvelopeCodec()
        var replyTo = RecentText()
        let addresses: [String?] = [
            "0123456789abcdef", "0123456789abcdef", "0123456789abcdee", nil, "0123456789abcdee", "short", "0123456789abcdef", "é",
        ]
        for address in addresses {
            var envelope = Samples.envelope(.tap(Tap(element: "add")))
            envelope.replyTo = address
            let frames = try codec.frames(envelope)
            let decoded = try codec.decode(frames: frames, replyTo: &replyTo)
            #expect(decoded == envelope)
            #expect(decoded == (try codec.decode(frames: frames)))
        }
    }
}
