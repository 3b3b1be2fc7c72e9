import Domain
import Testing
@testable import Wire

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

    /// The time the decoder hands back (read once, when checked) is the envelope's, parsed: read
    /// directly (a tap) or through `Decodable` (a heartbeat, an escaped text), whatever came before.
    @Test func theDecodedTimeIsTheEnvelopesTimeParsed() throws {
        let codec = EnvelopeCodec()
        var replyTo = RecentText()
        var tap = Samples.envelope(.tap(Tap(element: "add")))
        tap.time = "2026-11-30T03:14:39.123+02:00"
        var escaped = Samples.envelope(.tap(Tap(element: "a\"b")))
        escaped.time = "2026-12-01T00:00:00Z"
        let heartbeat = Samples.envelope(.heartbeat(Samples.heartbeat))
        for envelope in [tap, Samples.envelope(.tap(Tap(element: "add"))), escaped, heartbeat, tap] {
            var sent = -1.0
            let decoded = try codec.decode(frames: try codec.frames(envelope), replyTo: &replyTo, sent: &sent)
            #expect(decoded == envelope)
            #expect(sent == Timestamp.parse(envelope.time))
        }
        #expect(DirectDecoding.decode(try codec.frames(escaped)[1]) == nil)
    }
}
