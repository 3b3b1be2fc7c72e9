import Domain
import Foundation
import Testing
@testable import GatewayKit
import TestTiers

/// The gateway's command line.
@Suite(.tags(.inMemory)) struct CommandLineParserTests {
    func parse(_ line: String, environment: [String: String] = [:]) throws(UsageError) -> Invocation {
        try CommandLineParser.parse(line.split(separator: " ").map(String.init), environment: environment)
    }

    func usageError(_ line: String) -> UsageError? {
        do {
            _ = try parse(line)
            return nil
        } catch {
            return error
        }
    }

    @Test func aTapWithGlobalOptionsBeforeIt() throws {
        let invocation = try parse("--device iphone --json --timeout 2.5 tap add")
        #expect(invocation == Invocation(device: "iphone", deviceGiven: true, profile: .iphone, json: true, timeout: 2.5, command: .tap(Tap(element: "add"))))
    }

    @Test func rosterBackupAndForgetTakeTheirArgument() throws {
        #expect(try parse("roster backup /tmp/copy.db").command == .rosterBackup("/tmp/copy.db"))
        #expect(try parse("roster backup /tmp/copy.db").command.action(profile: nil) == .backupRequest(BackupRequest(path: "/tmp/copy.db")))
        #expect(usageError("roster backup")?.description.contains("FILE") == true)
        #expect(try parse("roster").command == .roster)
        #expect(try parse("forget left").command == .forget("left"))
        #expect(try parse("forget left").command.action(profile: nil) == .forget(Forget()))
        #expect(usageError("forget") != nil)
    }

    @Test func globalOptionsMayFollowTheCommand() throws {
        let invocation = try parse("tap photo --device=ipad --json")
        #expect(invocation.command == .tap(Tap(element: "photo")))
        #expect(invocation.json)
        #expect(invocation.device == "ipad")
    }

    /// A device id has 1 to 64 characters (as the envelope's `device`): 64 taken, 65 refused.
    @Test func aDeviceIdOf64CharactersIsTaken_65AreRefused() throws {
        let longest = String(repeating: "d", count: 64)
        #expect(try parse("--device \(longest) --profile ipad tap add").device == longest)
        #expect(usageError("--device \(longest)d --profile ipad tap add")?.description == "a device id has 1 to 64 characters")
        #expect(usageError("--device= --profile ipad tap add")?.description == "a device id has 1 to 64 characters")
    }

    /// --timeout and GATEWAY_TIMEOUT take seconds above 0 up to 3600: both ends of the range
    /// taken, 0 and a hair over 3600 refused — the variable too, never replaced by the default.
    @Test func theTimeoutIsAbove0UpTo3600Seconds_fromTheOptionOrTheEnvironment() throws {
        #expect(try parse("--timeout 3600 roster").timeout == 3600)
        #expect(try parse("--timeout 0.001 roster").timeout == 0.001)
        #expect(try parse("roster", environment: ["GATEWAY_TIMEOUT": "3600"]).timeout == 3600)
        #expect(try parse("roster", environment: ["GATEWAY_TIMEOUT": ""]).timeout == 5)
        for bad in ["0", "3600.001", "-1", "soon"] {
            #expect(usageError("--timeout \(bad) roster")?.description.hasPrefix("--timeout takes seconds") == true, "\(bad)")
            let error = #expect(throws: UsageError.self, "\(bad)") { try self.parse("roster", environment: ["GATEWAY_TIMEOUT": bad]) }
            #expect(error?.description == "GATEWAY_TIMEOUT takes seconds between 0 and 3600, not '\(bad)'")
        }
    }

    /// GATEWAY_RETRY_MS takes whole milliseconds from 0 (no retry) to an hour; unset or empty,
    /// no retry. Anything else is refused: it would turn the retries off without a word.
    @Test func theRetryIntervalIsWholeMillisecondsUpToAnHour_0OrUnsetForNone() throws {
        #expect(try parse("roster").retryInterval == nil)
        #expect(try parse("roster", environment: ["GATEWAY_RETRY_MS": ""]).retryInterval == nil)
        #expect(try parse("roster", environment: ["GATEWAY_RETRY_MS": "0"]).retryInterval == nil)
        #expect(try parse("roster", environment: ["GATEWAY_RETRY_MS": "300"]).retryInterval == 0.3)
        #expect(try parse("roster", environment: ["GATEWAY_RETRY_MS": "3600000"]).retryInterval == 3600)
        for bad in ["3600001", "-1", "300ms", "0.5", "soon"] {
            let error = #expect(throws: UsageError.self, "\(bad)") { try self.parse("roster", environment: ["GATEWAY_RETRY_MS": bad]) }
            #expect(error?.description == "GATEWAY_RETRY_MS takes milliseconds between 0 (no retry) and 3600000, not '\(bad)'")
        }
    }

    @Test func theDeviceDefaultsToIpadOrTheEnvironment() throws {
        #expect(try parse("roster").device == "ipad")
        #expect(try parse("roster", environment: ["GATEWAY_DEVICE": "iphone"]).profile == .iphone)
    }

    @Test func anUnnamedDeviceNeedsAProfileToBeCreated() throws {
        #expect(try parse("--device alice tap add").profile == nil)
        #expect(try parse("--device alice --profile iphone tap add").profile == .iphone)
    }

    @Test func aDeviceCanBeDescribedFully() throws {
        let profile = try #require(try parse("--device mini --idiom pad --screen 1024x744 --os 15.1 --orientation landscape --width compact rotate portrait").profile)
        #expect(profile == DeviceProfile(idiom: .pad, screen: Size(width: 744, height: 1024), os: OSVersion("15.1")!, orientation: .landscape, widthClass: .compact))
    }

    @Test func everyDeviceActionParses() throws {
        #expect(try parse("rotate landscape").command == .rotate(.landscape))
        #expect(try parse("resize compact").command == .resize(.compact))
        #expect(try parse("select Dog-Bot").command == .select("Dog-Bot"))
        #expect(try parse("interaction weapon off").command == .interaction(element: "weapon", enabled: false))
        #expect(try parse("tap --at 10,20.5").command == .tap(Tap(point: Point(x: 10, y: 20.5))))
        // Numbers JSON cannot carry are a usage error, not a message that cannot be sent.
        for point in ["inf,1", "1,nan", "1e999,0", "-infinity,2"] { #expect(usageError("tap --at \(point)") != nil, "\(point)") }
        #expect(usageError("--device d --screen 744x1024 --idiom pad --os 17.0 --orientation portrait --width regular tap add") == nil)
        #expect(usageError("--device d --screen infx1024 --idiom pad --os 17.0 --orientation portrait --width regular tap add") != nil)
        #expect(try parse("describe").command == .describe)
        #expect(try parse("status").command == .status)
        #expect(try parse("ping roster").command == .ping(["roster"]))
    }

    @Test func theToolCommandsParse() throws {
        #expect(try parse("watch --type presentation. --type roster. --count 3").command == .watch(types: ["presentation.", "roster."], count: 3))
        #expect(try parse("watch").command == .watch(types: [], count: nil))
        #expect(try parse("run Scenarios/x.scenario").command == .run("Scenarios/x.scenario"))
        #expect(try parse("shell").command == .shell)
        #expect(try parse("screen --out s.svg").command == .screen(out: "s.svg"))
        #expect(try parse("screen").command == .screen(out: nil))
        #expect(try parse("completion bash").command == .completion("bash"))
        #expect(try parse("watch").deviceGiven == false)
        #expect(try parse("--device iphone watch").deviceGiven == true)
        #expect(try parse("roster", environment: ["GATEWAY_TIMEOUT": "9"]).timeout == 9)
    }

    @Test func optionsOfOneCommandAreRefusedOnAnother() {
        #expect(usageError("tap add --out x.svg")?.description == "--out only goes with screen")
        #expect(usageError("roster --count 2") != nil)
        #expect(usageError("watch --count 0") != nil)
        #expect(usageError("completion zsh") != nil)
        #expect(usageError("run") != nil)
    }

    @Test func helpForTheToolAndForACommand() throws {
        #expect(try parse("--help").command == .help(nil))
        #expect(try parse("tap --help").command == .help("tap"))
        #expect(try parse("help rotate").command == .help("rotate"))
    }

    @Test func badCommandLinesAreRefusedWithAReason() {
        #expect(usageError("")?.description == "no command given")
        #expect(usageError("fly")?.description == "unknown command 'fly'")
        #expect(usageError("tap")?.command == "tap")
        #expect(usageError("tap add photo") != nil)
        #expect(usageError("rotate sideways")?.description.contains("portrait or landscape") == true)
        #expect(usageError("--timeout -1 status") != nil)
        #expect(usageError("--bogus status")?.description == "unknown option '--bogus'")
        #expect(usageError("--profile watch tap add")?.description.contains("unknown profile") == true)
        #expect(usageError("--device") != nil)
        #expect(usageError("interaction weapon maybe") != nil)
        #expect(usageError("ping nobody") != nil)
        #expect(usageError("--at 1,2 roster") != nil)
    }

    @Test func theEmbeddedOptionIsGlobal() throws {
        #expect(try parse("--embedded run x.scenario").embedded)
        #expect(try parse("tap add --embedded").embedded)
        #expect(try parse("tap add").embedded == false)
    }

    @Test func keysTakesItsOptionsAnywhere() throws {
        #expect(try parse("keys init run/keys --force").command == .keys(KeysRequest(folder: "run/keys", force: true)))
        #expect(try parse("--if-missing keys init run/keys").command == .keys(KeysRequest(folder: "run/keys", ifMissing: true)))
        #expect(usageError("keys init run/keys --force --if-missing") != nil)
        #expect(usageError("tap add --force")?.description == "--force only goes with keys")
        #expect(usageError("--json=yes roster") != nil)
    }

    @Test func theVersionOptionAndCommandAgree() throws {
        #expect(try parse("--version").command == .version)
        #expect(try parse("version").command == .version)
        #expect(try parse("help fly").command == .help(nil))
    }

    /// The section of `text` under the line `title`, up to the next empty line.
    func section(_ title: String, of text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: title) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    @Test func theOverviewListsExactlyTheDeclaredCommandsAndOptions() {
        let overview = GatewayHelp.overview
        let commands = section("Commands:", of: overview).map { $0.split(separator: " ")[0] }.map(String.init)
        #expect(commands == GatewayCommands.commands.map { $0.usage.split(separator: " ")[0] }.map(String.init))
        #expect(commands == GatewayCommands.commands.map(\.name))
        let synopses = section("Options:", of: overview).map { String($0.dropFirst(2)) }
            .map { $0.components(separatedBy: "  ")[0] }
        let options = synopses.flatMap { $0.split(separator: " ").filter { $0.hasPrefix("-") } }.map { $0.trimmingCharacters(in: [","]) }
        #expect(Set(options) == Set(GatewayCommands.globalOptions.flatMap(\.names)))
        #expect(options.count == GatewayCommands.globalOptions.flatMap(\.names).count)
        #expect(section("Exit status:", of: overview).count == ExitStatus.meanings.count)
        for command in GatewayCommands.commands { #expect(!command.examples.isEmpty) }
    }

    @Test func aCommandsHelpListsExactlyItsOwnOptions() {
        for command in GatewayCommands.commands {
            let text = GatewayHelp.text(for: command)
            let listed = section("Options:", of: text).map { $0.split(separator: " ")[0] }.map(String.init)
            #expect(listed == command.options.map(\.names[0]), "\(command.name)")
            #expect(text.contains("usage: gateway [OPTIONS] \(command.usage)"))
        }
    }
}

/// docs/gateway.md says what the declarations say.
@Suite(.tags(.inMemory)) struct GatewayPageTests {
    static let page: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return (try? String(contentsOf: url.appendingPathComponent("docs/gateway.md"), encoding: .utf8)) ?? ""
    }()

    @Test func theTapRowListsExactlyTheTappableElements() throws {
        let row = try #require(Self.page.split(separator: "\n").first { $0.hasPrefix("| `tap ELEMENT` |") })
        let cell = String(row.split(separator: "|")[1])
        let names = cell.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        #expect(names == GatewayElements.tappable)
    }

    @Test func theExitStatusSectionGivesEveryStatus() throws {
        let start = try #require(Self.page.range(of: "\n## Exit status"))
        let rest = Self.page[start.upperBound...]
        let section = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
        for (status, _) in ExitStatus.meanings { #expect(section.contains("`\(status)`"), "\(status)") }
    }
}
