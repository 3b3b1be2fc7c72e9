import Domain
import Testing
import Wire
import TestTiers

/// W3C trace context in the envelope: parsed strictly, carried by what an action causes.
@Suite(.tags(.unit)) struct TraceContextTests {
    let codec = EnvelopeCodec()

    @Test func aTraceparentParsesIntoItsParts() throws {
        let context = try #require(TraceContext(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
        #expect(context.traceId == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(context.spanId == "00f067aa0ba902b7")
        #expect(context.flags == "01")
        #expect(context.traceparent == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
    }

    @Test(arguments: [
        "", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba9ü2b7-01",
    ])
    func malformedTraceparentsAreRefused(_ text: String) {
        #expect(TraceContext(traceparent: text) == nil)
        #expect(!TraceContext.isValid(traceparent: text))
    }

    @Test func aWellFormedTraceparentIsValid() {
        #expect(TraceContext.isValid(traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
        #expect(TraceContext.isValid(traceparent: TraceContext.newTrace().traceparent))
    }

    @Test func aChildKeepsTheTraceWithASpanOfItsOwn() throws {
        let root = TraceContext.newTrace()
        let child = root.child()
        #expect(child.traceId == root.traceId)
        #expect(child.spanId != root.spanId)
        #expect(TraceContext(traceparent: child.traceparent) == child)
        #expect(TraceContext.newTrace().traceId != root.traceId)
        let spans = (0..<10_000).map { _ in root.child().spanId }
        #expect(Set(spans).count == spans.count)
        #expect(spans.allSatisfy { TraceContext.isSpanId($0) })
    }

    @Test func theHeadersOfAMessageCausedByATracedOneAreItsChilds() throws {
        let cause = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"
        let (traceparent, parentSpan) = TraceContext.headers(causedBy: cause)
        let context = try #require(TraceContext(traceparent: traceparent))
        #expect(context.traceId == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(context.flags == "00")
        #expect(context.spanId != "00f067aa0ba902b7")
        #expect(parentSpan == "00f067aa0ba902b7")
    }

    @Test(arguments: [nil, "", "00-xyz", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"])
    func theHeadersOfAMessageCausedByAnUntracedOneStartATrace(_ cause: String?) throws {
        let (traceparent, parentSpan) = TraceContext.headers(causedBy: cause)
        let context = try #require(TraceContext(traceparent: traceparent))
        #expect(context.flags == "01")
        #expect(parentSpan == nil)
        #expect(TraceContext.headers(causedBy: cause).traceparent.prefix(35) != traceparent.prefix(35))
    }

    @Test(arguments: [nil, "", "00-xyz", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"])
    func aMessageWithoutAValidTraceIsHandledInANewOne(_ cause: String?) throws {
        let handling = TraceContext.handling(cause)
        let context = try #require(TraceContext(traceparent: handling.traceparent))
        #expect(context.flags == "01")
        #expect(handling.span == context.spanId)
        #expect(TraceContext.handling(cause).traceparent != handling.traceparent)
        // What it causes: children of that span, in that trace.
        let (first, parent) = handling.child()
        let (second, _) = handling.child()
        #expect(parent == context.spanId)
        let child = try #require(TraceContext(traceparent: first))
        #expect(child.traceId == context.traceId && child.flags == "01" && child.spanId != context.spanId)
        #expect(second.prefix(35) == first.prefix(35) && second != first)
    }

    @Test func aMessageWithATraceIsHandledInIt() throws {
        let cause = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"
        let handling = TraceContext.handling(cause)
        #expect(handling.traceparent == cause && handling.span == "00f067aa0ba902b7")
        let (traceparent, parent) = handling.child()
        let child = try #require(TraceContext(traceparent: traceparent))
        #expect(child.traceId == "4bf92f3577b34da6a3ce929d0e0e4736" && child.flags == "00" && parent == "00f067aa0ba902b7")
    }

    @Test func anEnvelopeWithABadTraceparentOrParentSpanIsRefused() throws {
        func json(_ extra: String) -> [UInt8] {
            Array("{\"v\":1,\"type\":\"sys.ping\",\"id\":\"a-1\",\"correlationId\":\"a-1\",\"service\":\"t\",\"seq\":1,\"time\":\"2026-11-30T03:14:39.123Z\",\(extra)\"body\":{}}".utf8)
        }
        #expect(throws: MessageError.self) { try codec.decode(json("\"traceparent\":\"00-xyz\",")) }
        #expect(throws: MessageError.self) { try codec.decode(json("\"parentSpan\":\"0000000000000000\",")) }
        // Sixteen characters, not all of them lowercase hex digits.
        for span in ["b7ad6b716920333g", "B7AD6B7169203331", "b7ad6b71-9203331"] {
            #expect(throws: MessageError.self, "\(span)") { try codec.decode(json("\"parentSpan\":\"\(span)\",")) }
        }
        #expect(throws: MessageError.self) { try codec.decode(json("\"traceparent\":7,")) }
        let plain = try codec.decode(json(""))
        #expect(plain.traceparent == nil && plain.trace == nil)
        let traced = try codec.decode(json("\"traceparent\":\"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01\",\"parentSpan\":\"b7ad6b7169203331\","))
        #expect(traced.trace?.spanId == "00f067aa0ba902b7")
        #expect(traced.parentSpan == "b7ad6b7169203331")
        do {
            _ = try codec.decode(json("\"traceparent\":\"00-xyz\","))
        } catch {
            #expect(error.code == .badShape)
            #expect(error.offendingId == "a-1")
        }
    }
}
