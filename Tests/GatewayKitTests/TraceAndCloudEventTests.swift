import Contract
import Domain
import Testing
import Wire
@testable import GatewayKit
import TestTiers

/// The trace tree of `--trace` and the CloudEvents of `watch --format cloudevents`, without sockets.
@Suite(.tags(.inMemory)) struct TraceAndCloudEventTests {
    let root = TraceContext(traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7")

    func message(_ id: String, _ service: String, _ body: Body, trace: TraceContext?, parent: String?) -> Envelope {
        Envelope(
            id: id, correlationId: "a-1", service: service, device: "ipad", seq: 1, time: "2026-11-30T03:14:39.123Z",
            traceparent: trace?.traceparent, parentSpan: parent, body: body)
    }

    @Test func theTreeHangsEachMessageUnderItsCauseWithTheHopsLatency() throws {
        let forwardSpan = TraceContext(traceId: root.traceId, spanId: "1111111111111111")
        let action = TraceTree.Hop(envelope: message("a-1", "gateway", .tap(Tap(element: "weapon")), trace: root, parent: nil), at: 10)
        let forward = message("p-1", "presentation-policy", .inputTap(InputTap(element: "weapon", keyboard: KeyboardMetrics(width: 768, systemHeight: 264, windowHeight: 1024))), trace: forwardSpan, parent: root.spanId)
        let shown = message("i-1", "input-handling", .ack(Ack(handled: "input.tap", handledId: "p-1", emitted: [], forwarded: [])), trace: forwardSpan.child(), parent: forwardSpan.spanId)
        let ack = message("p-2", "presentation-policy", .ack(Ack(handled: "device.tap", handledId: "a-1", emitted: ["p-1"], forwarded: [])), trace: root.child(), parent: root.spanId)
        let tree = TraceTree(action: action, caused: [
            TraceTree.Hop(envelope: forward, at: 10.001), TraceTree.Hop(envelope: ack, at: 10.0015), TraceTree.Hop(envelope: shown, at: 10.00175),
        ])
        let lines = tree.lines()
        try #require(lines.count == 5)
        #expect(lines[0] == "trace 4bf92f3577b34da6a3ce929d0e0e4736 — 3 message(s) caused by device.tap a-1")
        #expect(lines[1].hasPrefix("gateway device.tap a-1 at 2026-11-30T03:14:39.123Z sent [span 00f067aa0ba902b7]"))
        #expect(lines[2].hasPrefix("├─ presentation-policy input.tap p-1 ") && lines[2].contains(" +1.000 ms "))
        #expect(lines[3].hasPrefix("│  └─ input-handling ack i-1 ") && lines[3].contains(" +0.750 ms "))
        #expect(lines[4].hasPrefix("└─ presentation-policy ack p-2 ") && lines[4].contains(" +1.500 ms "))
        #expect(tree.outsiders.isEmpty)
    }

    @Test func aMessageOutsideTheTraceIsMarked() {
        let action = TraceTree.Hop(envelope: message("a-1", "gateway", .tap(Tap(element: "add")), trace: root, parent: nil), at: 0)
        let stranger = message("x-1", "other", .ack(Ack(handled: "device.tap", handledId: "a-1", emitted: [], forwarded: [])), trace: .newTrace(), parent: nil)
        let tree = TraceTree(action: action, caused: [TraceTree.Hop(envelope: stranger, at: 0.002)])
        #expect(tree.lines()[2].contains("(not in this trace)"))
        #expect(tree.outsiders.map(\.id) == ["x-1"])
    }

    @Test func anEnvelopeMapsToACloudEvent() {
        let envelope = message("p-1", "presentation-policy", .mediaAddRequested(MediaAddRequested(kind: .photo)), trace: root, parent: "1111111111111111")
        let event = CloudEvent.event(envelope, body: ["kind": "photo"])
        #expect(event == [
            "specversion": "1.0", "id": "p-1", "source": "/monster-bus/presentation-policy", "type": "media.add.requested",
            "time": "2026-11-30T03:14:39.123Z", "subject": "ipad", "datacontenttype": "application/json", "correlationid": "a-1",
            "sequence": "00000000000000000001", "traceparent": .string(root.traceparent), "parentspan": "1111111111111111",
            "data": ["kind": "photo"],
        ])
        #expect(CloudEvent.sequence(UInt64.max) == "18446744073709551615")
    }

    @Test func watchOptionsParseAndBelongToWatch() throws {
        let invocation = try CommandLineParser.parse(["watch", "--format", "cloudevents", "--validate"])
        #expect(invocation.format == .cloudevents)
        #expect(invocation.validate)
        #expect(try CommandLineParser.parse(["--json", "watch"]).format == .json)
        #expect(try CommandLineParser.parse(["--trace", "tap", "add"]).trace)
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["tap", "add", "--validate"]) }
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["watch", "--format", "xml"]) }
        #expect(try CommandLineParser.parse(["contract"]).command == .contract)
    }
}
