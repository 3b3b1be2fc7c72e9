import Domain
import Glibc
import JSON
import Wire

/// How severe a log line is.
public enum LogLevel: String, Sendable, Comparable {
    case debug, info, warn, error

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warn: 2
        case .error: 3
        }
    }

    /// The OpenTelemetry severity text: `DEBUG`, `INFO`, `WARN`, `ERROR`.
    public var severityText: String { rawValue.uppercased() }

    /// The OpenTelemetry severity number: DEBUG 5, INFO 9, WARN 13, ERROR 17.
    public var severityNumber: Int { 5 + 4 * rank }

    /// Orders levels by severity: debug < info < warn < error.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}

/// How log lines are written (`LOG_FORMAT`).
public enum LogFormat: String, Sendable {
    /// `time service level: text`, for a person at a terminal (the default).
    case text
    /// One JSON object per line in the OpenTelemetry log data model's field names.
    case json
}

/// What a log line is about: the message and action it concerns, for filtering and tracing.
public struct LogContext: Sendable, Equatable {
    /// The action's id, carried by everything it caused.
    public var correlationId: String?
    /// The message's own id.
    public var messageId: String?
    /// The message type (its topic).
    public var messageType: String?
    /// The simulated device.
    public var device: String?
    /// The W3C trace id (32 hex digits).
    public var traceId: String?
    /// The span id (16 hex digits).
    public var spanId: String?

    /// The context of `envelope`: its correlation id, id, type, device and trace.
    public init(_ envelope: Envelope) {
        correlationId = envelope.correlationId; messageId = envelope.id; messageType = envelope.type.rawValue
        device = envelope.device
        let trace = envelope.trace
        traceId = trace?.traceId; spanId = trace?.spanId
    }
}

/// Writes one line per event to standard error: `time service level: text`, or with
/// `LOG_FORMAT=json` one OpenTelemetry log record as a JSON object.
public struct Log: Sendable {
    /// The service named in every line.
    public let service: String
    /// Lines below this level are dropped.
    public let level: LogLevel
    /// Text or JSON lines.
    public let format: LogFormat

    /// A log for `service` at `level`, in `format`.
    public init(service: String, level: LogLevel, format: LogFormat = .text) {
        self.service = service; self.level = level; self.format = format
    }

    /// Writes `text` at `lineLevel`, if the log's level lets it through, about `context` if given.
    public func write(_ lineLevel: LogLevel, _ text: @autoclosure () -> String, context: @autoclosure () -> LogContext? = nil) {
        guard lineLevel >= level else { return }
        let context = context()
        switch format {
        case .text:
            var line = "\(Timestamp.now()) \(service) \(lineLevel.rawValue): \(text())"
            if let context {
                line += " [correlation \(context.correlationId ?? "-") device \(context.device ?? "-")"
                if let traceId = context.traceId, let spanId = context.spanId { line += " trace \(traceId) span \(spanId)" }
                line += "]"
            }
            Self.standardError(line + "\n")
        case .json:
            Self.standardError(jsonLine(lineLevel, text(), context: context) + "\n")
        }
    }

    /// One OpenTelemetry log record (Timestamp in nanoseconds since the epoch, as in the data
    /// model's examples; Resource `service.name`; Attributes in semantic-convention names).
    func jsonLine(_ lineLevel: LogLevel, _ text: String, context: LogContext?) -> String {
        let nanoseconds = UInt64((Timestamp.wallClock() * 1_000_000).rounded()) * 1000
        var attributes: [(String, String)] = []
        if let context {
            if let value = context.correlationId { attributes.append(("messaging.message.conversation_id", value)) }
            if let value = context.messageId { attributes.append(("messaging.message.id", value)) }
            if let value = context.messageType { attributes.append(("messaging.destination.name", value)) }
            if let value = context.device { attributes.append(("device.id", value)) }
        }
        var line = "{\"Timestamp\":\"\(nanoseconds)\",\"SeverityText\":\"\(lineLevel.severityText)\",\"SeverityNumber\":\(lineLevel.severityNumber)"
        line += ",\"Body\":" + Self.quoted(text)
        line += ",\"Resource\":{\"service.name\":" + Self.quoted(service) + ",\"service.version\":" + Self.quoted(MonsterBus.version) + ",\"process.pid\":\(getpid())}"
        line += ",\"Attributes\":{" + attributes.map { Self.quoted($0.0) + ":" + Self.quoted($0.1) }.joined(separator: ",") + "}"
        if let traceId = context?.traceId { line += ",\"TraceId\":" + Self.quoted(traceId) }
        if let spanId = context?.spanId { line += ",\"SpanId\":" + Self.quoted(spanId) }
        return line + "}"
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String { JSONWriter.quoted(text) }

    /// Writes `text` at `debug`: detail shown only with `LOG_LEVEL=debug`.
    public func debug(_ text: @autoclosure () -> String, context: @autoclosure () -> LogContext? = nil) { write(.debug, text(), context: context()) }
    /// Writes `text` at `info`, the default `LOG_LEVEL`: normal events such as start and stop.
    public func info(_ text: @autoclosure () -> String, context: @autoclosure () -> LogContext? = nil) { write(.info, text(), context: context()) }
    /// Writes `text` at `warn`: something wrong that the process survives (an unreadable message, a plaintext bus).
    public func warn(_ text: @autoclosure () -> String, context: @autoclosure () -> LogContext? = nil) { write(.warn, text(), context: context()) }
    /// Writes `text` at `error`: something failed, such as storing a change.
    public func error(_ text: @autoclosure () -> String, context: @autoclosure () -> LogContext? = nil) { write(.error, text(), context: context()) }

    /// Writes `text` to file descriptor 2 as it is.
    public static func standardError(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
