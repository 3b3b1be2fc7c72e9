#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MonsterKit

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

    /// Orders levels by severity: debug < info < warn < error.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}

/// Writes one line per event to standard error: time, service, level, text.
public struct Log: Sendable {
    /// The service named in every line.
    public let service: String
    /// Lines below this level are dropped.
    public let level: LogLevel

    /// A log for `service` at `level`.
    public init(service: String, level: LogLevel) {
        self.service = service; self.level = level
    }

    /// Writes `text` at `lineLevel`, if the log's level lets it through.
    public func write(_ lineLevel: LogLevel, _ text: @autoclosure () -> String) {
        guard lineLevel >= level else { return }
        let line = "\(Timestamp.now()) \(service) \(lineLevel.rawValue): \(text())\n"
        Self.standardError(line)
    }

    /// Writes `text` at `debug`: detail shown only with `LOG_LEVEL=debug`.
    public func debug(_ text: @autoclosure () -> String) { write(.debug, text()) }
    /// Writes `text` at `info`, the default `LOG_LEVEL`: normal events such as start and stop.
    public func info(_ text: @autoclosure () -> String) { write(.info, text()) }
    /// Writes `text` at `warn`: something wrong that the process survives (an unreadable message, a plaintext bus).
    public func warn(_ text: @autoclosure () -> String) { write(.warn, text()) }
    /// Writes `text` at `error`: something failed, such as storing a change.
    public func error(_ text: @autoclosure () -> String) { write(.error, text()) }

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
