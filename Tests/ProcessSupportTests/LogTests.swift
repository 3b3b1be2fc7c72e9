import Domain
import Foundation
import ProcessSupport
import Testing
import Wire
@testable import ProcessSupport
import TestTiers

/// `LOG_FORMAT=json`: OpenTelemetry log records, one JSON object per line.
@Suite(.tags(.unit)) struct LogTests {
    let envelope = Envelope(
        id: "m-2", correlationId: "a-1", service: "gateway", device: "ip\"ad", seq: 2, time: "2026-11-30T03:14:39.123Z",
        traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", body: .tap(Tap(element: "add")))

    @Test func aJSONLineIsAnOpenTelemetryLogRecord() throws {
        let log = Log(service: "roster", level: .info, format: .json)
        let line = log.jsonLine(.warn, "refused\n\"that\" \u{1}", context: LogContext(envelope))
        #expect(!line.contains("\n"))
        let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(record["SeverityText"] as? String == "WARN")
        #expect(record["SeverityNumber"] as? Int == 13)
        #expect(record["Body"] as? String == "refused\n\"that\" \u{1}")
        #expect((record["Resource"] as? [String: Any])?["service.name"] as? String == "roster")
        #expect(record["TraceId"] as? String == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(record["SpanId"] as? String == "00f067aa0ba902b7")
        let attributes = try #require(record["Attributes"] as? [String: String])
        #expect(attributes == [
            "messaging.message.conversation_id": "a-1", "messaging.message.id": "m-2",
            "messaging.destination.name": "device.tap", "device.id": "ip\"ad",
        ])
        let nanoseconds = try #require(UInt64(record["Timestamp"] as? String ?? ""))
        #expect(abs(Double(nanoseconds) / 1e9 - Timestamp.wallClock()) < 60)
    }

    @Test func severitiesFollowTheOpenTelemetryNumbers() {
        #expect([LogLevel.debug, .info, .warn, .error].map(\.severityNumber) == [5, 9, 13, 17])
        #expect(LogLevel.debug.severityText == "DEBUG")
    }

    @Test func theFormatComesFromLOG_FORMAT() throws {
        #expect(try BusConfig.fromEnvironment([:]).logFormat == .text)
        #expect(try BusConfig.fromEnvironment(["LOG_FORMAT": "JSON"]).logFormat == .json)
        #expect(throws: ConfigError.self) { try BusConfig.fromEnvironment(["LOG_FORMAT": "xml"]) }
    }
}
