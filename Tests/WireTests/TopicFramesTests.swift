import Domain
import Testing
@testable import Wire

/// A sender's recent topic frames give the same bytes as writing the frame afresh, whether the
/// frame is reused, new, or replaces the oldest once all are taken.
@Suite struct TopicFramesTests {
    @Test func aReusedOrReplacedFrameIsTheFrameOfTheEnvelope() {
        let bodies: [Body] = [
            .presented(Presented(presentation: Samples.popover, reason: "tap")),
            .presented(Presented(presentation: Samples.alert, reason: "tap")),
            .dismissed(Dismissed(presentation: Samples.popover, reason: "toggle")),
            .ack(Ack(handled: "device.tap", handledId: "a-1", emitted: [], forwarded: [])),
            .tap(Tap(element: "add")),
        ]
        var topics = TopicFrames()
        // More addresses than frames kept, twice over: every frame is written, reused and replaced.
        for round in 0..<2 {
            for client in 0..<(TopicFrames.capacity + 3) {
                for body in bodies {
                    for replyTo in ["client-\(client)", nil] {
                        var envelope = Samples.envelope(body, device: "ipad-\(client % 3)")
                        envelope.replyTo = replyTo
                        let frame = topics.frame(of: envelope)
                        #expect(frame == Array(envelope.topic.utf8), "round \(round)")
                        #expect(frame == topics.frame(of: envelope))
                    }
                }
            }
        }
    }
}
