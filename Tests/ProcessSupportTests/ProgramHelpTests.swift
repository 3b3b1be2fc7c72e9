import Domain
import Foundation
import Runtime
import Testing
@testable import ProcessSupport
import TestTiers

/// The options and environment facility every executable's `--help` comes from.
@Suite(.tags(.unit)) struct ProgramHelpTests {
    static let configurationPage: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return (try? String(contentsOf: url.appendingPathComponent("docs/configuration.md"), encoding: .utf8)) ?? ""
    }()

    /// The rows of docs/configuration.md's table of variables: variable name and the rest of the row.
    static var configurationRows: [(name: String, row: String)] {
        let lines = configurationPage.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "## Variables") else { return [] }
        return lines[(start + 1)...].prefix { !$0.hasPrefix("## ") }.filter { $0.hasPrefix("| `") }.compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = cells.first, first.hasPrefix("`"), first.hasSuffix("`") else { return nil }
            return (String(first.dropFirst().dropLast()), line)
        }
    }

    @Test func theConfigurationPageListsExactlyTheDeclaredVariables() {
        let rows = Self.configurationRows
        #expect(rows.map(\.name).sorted() == EnvironmentVariable.all.map(\.name).sorted())
        #expect(Set(rows.map(\.name)).count == rows.count)
        for variable in EnvironmentVariable.all {
            guard let defaultValue = variable.defaultValue, let row = rows.first(where: { $0.name == variable.name }) else { continue }
            #expect(row.row.contains(defaultValue), "\(variable.name): docs/configuration.md's row does not give the default \(defaultValue)")
        }
    }

    @Test func theDeclaredDefaultsAreBusConfigs() throws {
        let config = try BusConfig.fromEnvironment([:])
        let defaults = Dictionary(uniqueKeysWithValues: EnvironmentVariable.all.map { ($0.name, $0.defaultValue) })
        #expect(defaults["BUS_FRONTEND"] == config.frontend)
        #expect(defaults["BUS_BACKEND"] == config.backend)
        #expect(defaults["HEARTBEAT_INTERVAL_MS"] == String(config.heartbeatIntervalMilliseconds))
        #expect(defaults["BUS_MAX_MESSAGE_BYTES"] == String(config.maxMessageBytes))
        #expect(defaults["BUS_HWM"] == String(config.highWaterMark))
        #expect(defaults["ACTION_TTL_MS"] == String(config.actionTimeToLiveMilliseconds))
        #expect(defaults["CLOCK_SKEW_MS"] == String(config.clockSkewMilliseconds))
        #expect(defaults["IDEMPOTENCE_WINDOW"] == String(config.idempotenceWindow))
        #expect(defaults["LOG_LEVEL"] == config.logLevel.rawValue)
        #expect(defaults["LOG_FORMAT"] == config.logFormat.rawValue)
        #expect(defaults["DEVICE_IDLE_EXPIRY_SECONDS"] == String(Int(DeviceIdleExpiry.defaultSeconds)))
    }

    @Test func everyVariableBusConfigReadsIsInEveryConnectedProgramsHelp() {
        for name in ["BUS_HWM", "ACTION_TTL_MS", "BUS_MAX_MESSAGE_BYTES", "BUS_FRONTEND", "LOG_FORMAT", "BUS_KEYS_DIR"] {
            for group in [EnvironmentVariable.bus, EnvironmentVariable.shardedService, EnvironmentVariable.roster, EnvironmentVariable.monitor, EnvironmentVariable.gateway] {
                let help = ProgramHelp(usage: "x", summary: "", options: [], environment: group).text
                #expect(help.contains("\n  \(name) "), "\(name)")
            }
        }
    }

    @Test func theHelpListsOptionsAndEnvironmentWithDefaults() {
        let text = ProgramHelp(
            usage: "roster [--restore FILE]", summary: "Runs roster.",
            options: [.help, ProgramOption("--restore", value: "FILE", help: "start on a copy")],
            environment: [EnvironmentVariable.highWaterMark]
        ).text
        #expect(text.hasPrefix("usage: roster [--restore FILE]\n\nRuns roster.\n\nOptions:\n"))
        #expect(text.contains("  -h, --help"))
        #expect(text.contains("  --restore FILE"))
        #expect(text.contains("Environment:\n  BUS_HWM  messages queued per peer before a publisher must wait (default 100000)"))
    }

    @Test func theOptionParserTakesOnlyDeclaredOptions() throws {
        let restore = ProgramOption("--restore", value: "FILE", help: "")
        #expect(try OptionParser.parse(["--restore", "a.db", "-h"], [.help, restore])
            == [ParsedOption(name: "--restore", value: "a.db"), ParsedOption(name: "--help", value: nil)])
        #expect(try OptionParser.parse(["--restore=b.db"], [restore]) == [ParsedOption(name: "--restore", value: "b.db")])
        #expect(throws: ConfigError.self) { try OptionParser.parse(["--restore"], [restore]) }
        #expect(throws: ConfigError.self) { try OptionParser.parse(["--bogus"], [restore]) }
        #expect(throws: ConfigError.self) { try OptionParser.parse(["stray"], [restore]) }
        #expect(throws: ConfigError.self) { try OptionParser.parse(["--help=x"], [.help]) }
    }
}
