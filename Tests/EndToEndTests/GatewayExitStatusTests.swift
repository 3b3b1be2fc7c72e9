import Foundation
import Processes
import Testing
import TestTiers

/// The gateway's exit statuses (docs/gateway.md "Exit status", docs/testing.md), each with its
/// message, on the paths that need no stack: in memory (`--embedded`, `gateway test`), with no
/// bus where one is needed (a timeout), with a setting or a file that cannot be used.
@Suite(.tags(.processes)) final class GatewayExitStatusTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    /// `gateway ARGUMENTS…` with `environment` over this process's (no bus variables: in memory,
    /// or the default bus when nothing else is said).
    func gateway(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
        var base = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("BUS_") && !$0.key.hasPrefix("GATEWAY_") }
        base["NO_COLOR"] = "1"
        return try runToCompletion(Products.url("gateway"), arguments, environment: base.merging(environment) { $1 })
    }

    /// Endpoints where no bus is.
    var noBus: [String: String] {
        ["BUS_FRONTEND": "ipc://" + folder.file("no-bus-front"), "BUS_BACKEND": "ipc://" + folder.file("no-bus-back")]
    }

    /// Writes `text` to `name` in the folder; returns its path.
    func scenario(_ name: String, _ text: String) throws -> String {
        let path = folder.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func versionHelpContractAndCompletionExitZero_anUnknownShellIsAUsageError() throws {
        let version = try gateway(["version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("gateway ") && version.stdout.split(separator: "\n").count == 1, "\(version.stdout)")
        let help = try gateway(["help", "tap"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: gateway [OPTIONS] tap ELEMENT"))
        let bash = try gateway(["completion", "bash"])
        #expect(bash.status == 0)
        #expect(bash.stdout.contains("_gateway()"))
        let contract = try gateway(["contract"])
        #expect(contract.status == 0)
        #expect(contract.stdout.contains("asyncapi: \"3.0.0\""))
        let zsh = try gateway(["completion", "zsh"])
        #expect(zsh.status == 2)
        #expect(zsh.stderr == "gateway: completion knows bash only, not 'zsh'\nusage: gateway [OPTIONS] completion bash\n")
    }

    @Test func keysInitMakesRefusesToReplaceAndCannotWriteUnderAFile() throws {
        let keys = folder.file("keys")
        let made = try gateway(["keys", "init", keys])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.hasPrefix("created CURVE certificates in \(keys) "))
        let again = try gateway(["keys", "init", keys])
        #expect(again.status == 1)
        #expect(again.stderr.hasPrefix("gateway: \(keys) already has keys (") && again.stderr.contains("use --force to replace them"), "\(again.stderr)")
        let usage = try gateway(["keys", "init"])
        #expect(usage.status == 2)
        #expect(usage.stderr == "gateway: keys init needs a folder\nusage: gateway [OPTIONS] keys init DIR [--force | --if-missing]\n")
        let file = try scenario("a-file", "not a folder\n")
        let unwritable = try gateway(["keys", "init", file + "/keys"])
        #expect(unwritable.status == 5)
        #expect(unwritable.stderr.hasPrefix("gateway: cannot create the folder \(file)"), "\(unwritable.stderr)")
        #expect(unwritable.stdout.isEmpty)
    }

    static let badSettings: [(variable: String, value: String, says: String)] = [
        ("HEARTBEAT_INTERVAL_MS", "abc", "HEARTBEAT_INTERVAL_MS must be a number of milliseconds from 10 to 60000, not 'abc'"),
        ("BUS_FRONTEND", "tcp://127.0.0.1", "BUS_FRONTEND=tcp://127.0.0.1 is not a ZeroMQ endpoint the bus can use: tcp:// needs HOST:PORT"),
        ("BUS_BACKEND", "bus:5556", "BUS_BACKEND=bus:5556 is not a ZeroMQ endpoint the bus can use: it must be tcp://HOST:PORT, ipc://PATH or inproc://NAME"),
        ("BUS_BACKEND", "tcp://bus:5556,tcp://bus-b:5556", "BUS_FRONTEND lists 1 bus(es) and BUS_BACKEND 2: both list the same buses in the same order"),
        ("BUS_FRONTEND", "tcp://a:1,tcp://b:1,tcp://c:1", "BUS_FRONTEND=tcp://a:1,tcp://b:1,tcp://c:1 lists 3 buses: at most 2 (a pair)"),
        ("BUS_KEYS_DIR", "/nonexistent-keys", "BUS_KEYS_DIR: cannot read /nonexistent-keys/gateway.key_secret"),
    ]

    @Test(arguments: GatewayExitStatusTests.badSettings.map { "\($0.variable)=\($0.value)" })
    func aBusSettingThatCannotBeUsedIsStatusFourNamingIt(_ assignment: String) throws {
        let setting = try #require(Self.badSettings.first { "\($0.variable)=\($0.value)" == assignment })
        let variable = setting.variable
        let file = try scenario("one.scenario", "tap add\n")
        for command in [["tap", "add"], ["status"], ["run", file], ["test", file], ["test", "--live", file]] {
            let result = try gateway(["--timeout", "0.3"] + command, environment: noBus.merging([variable: setting.value]) { $1 })
            #expect(result.status == 4, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix("gateway: \(setting.says)"), "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func withNoBusACommandTimesOutWithThreeNamingWhatDidNotAnswer() throws {
        let silent = "through the bus at \(noBus["BUS_FRONTEND"] ?? "") / \(noBus["BUS_BACKEND"] ?? "")"
        for (command, missing) in [(["status"], "bus"), (["watch"], "bus"), (["ping", "roster"], "roster"), (["describe"], "input-handling, presentation-policy, roster")] {
            let result = try gateway(["--timeout", "0.3"] + command, environment: noBus)
            #expect(result.status == 3, "\(command): \(result.stderr)")
            #expect(result.stderr.hasPrefix("gateway: no answer from \(missing) \(silent)"), "\(command): \(result.stderr)")
        }
    }

    @Test func inAScenarioAnActionWithNoAnswerEndsTheRunWithThree_andGatewayTestSkipsItsExpectationsWithOne() throws {
        let file = try scenario("silent.scenario", "--device ipad tap add\nexpect presentation.presented\n--device ipad tap outside\n")
        let run = try gateway(["--timeout", "0.3", "run", file], environment: noBus)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("gateway: \(file):1: no answer from presentation-policy"), "\(run.stderr)")
        #expect(!run.stdout.contains("tap outside"))
        let test = try gateway(["--timeout", "0.3", "test", "--live", file], environment: noBus)
        #expect(test.status == 1, "\(test.stderr)")
        #expect(test.stdout == "FAIL  \(file): 0 passed, 1 skipped, 2 action(s) not performed\n0 passed, 0 failed, 1 skipped\n")
        #expect(test.stderr.contains("gateway: \(file):2: skipped: its action at line 1 was not performed: no answer from presentation-policy"), "\(test.stderr)")
    }

    @Test func inAScenarioAnActionThatFailsEndsTheRunWithItsOwnStatusNamingItsLine() throws {
        let alert = "--device iphone tap add\n--device iphone tap add\n"
        let unexpected = try scenario("refused.scenario", alert + "--device iphone tap cancel\n")
        let refused = try gateway(["--embedded", "run", unexpected])
        #expect(refused.status == 1)
        #expect(refused.stderr == "gateway: \(unexpected):2: refused by presentation-policy [modal-alert]: an alert (Add…) is up: only its buttons Cancel, Photo, Audio can be tapped, and no expectation follows it (`expect error code=…` when the refusal is meant)\n")
        #expect(!refused.stdout.contains("tap cancel"))
        let expected = try scenario("expected.scenario", alert + "expect error code=modal-alert\n--device iphone tap cancel\n")
        let checked = try gateway(["--embedded", "run", expected])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(checked.stdout.hasSuffix("\(expected): 3 action(s), 1 expectation(s) passed\n"))

        let image = folder.file("missing/s.svg")
        let screen = try scenario("screen.scenario", "--device ipad tap add\nscreen --out \(image)\n--device ipad tap outside\n")
        let unwritable = try gateway(["--embedded", "run", screen])
        #expect(unwritable.status == 5)
        #expect(unwritable.stderr == "gateway: \(screen):2: cannot write \(image): the folder \(folder.file("missing")) does not exist\n")
        #expect(!unwritable.stdout.contains("tap outside"))

        for (text, says) in [("--device ipad tap add\nfly\n", ":2: unknown command 'fly'"), ("run other.scenario\n", ":1: run cannot be used inside a scenario")] {
            let file = try scenario("usage.scenario", text)
            let usage = try gateway(["--embedded", "run", file])
            #expect(usage.status == 2)
            #expect(usage.stderr == "gateway: \(file)\(says)\n")
        }
        let quote = try scenario("quote.scenario", "--device ipad tap \"add\n")
        let unclosed = try gateway(["--embedded", "run", quote])
        #expect(unclosed.status == 2)
        #expect(unclosed.stderr == "gateway: \(quote): line 1: a quote is not closed\nusage: gateway [OPTIONS] run FILE\n")
    }

    @Test func inMemoryASingleActionRefusedExitsOneAndAScreenOfAnUnknownDeviceToo() throws {
        let refused = try gateway(["--embedded", "--device", "iphone", "tap", "photo"])
        #expect(refused.status == 1)
        #expect(refused.stdout == "iphone refused by presentation-policy [no-such-element]: 'photo' is not on screen: no popover or alert shows it\n")
        let screen = try gateway(["--embedded", "--device", "nobody", "screen"])
        #expect(screen.status == 1)
        #expect(screen.stdout.hasPrefix("nobody refused by presentation-policy [unknown-device]"), "\(screen.stdout)")
    }

    @Test func gatewayTestSaysFiveForWhatItCannotReadTwoForWhatIsNotAScenarioAndTheHighestApplies() throws {
        let empty = folder.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let none = try gateway(["test", empty])
        #expect(none.status == 5)
        #expect(none.stdout == "ERROR \(empty): no .scenario file in this folder\n1 file(s) could not be run\n0 passed, 0 failed\n")

        let unreadable = folder.file("odd/folder.scenario")
        try FileManager.default.createDirectory(atPath: unreadable, withIntermediateDirectories: true)
        let odd = try gateway(["test", folder.file("odd")])
        #expect(odd.status == 5)
        #expect(odd.stdout.hasPrefix("ERROR \(unreadable): cannot read the scenario file\n"), "\(odd.stdout)")

        let quote = try scenario("quote.scenario", "--device ipad tap \"add\n")
        let unclosed = try gateway(["test", quote])
        #expect(unclosed.status == 2)
        #expect(unclosed.stdout.hasPrefix("ERROR \(quote): line 1: a quote is not closed\n"), "\(unclosed.stdout)")

        let report = folder.file("missing/report.xml")
        let junit = try gateway(["test", "--junit", report, quote])
        #expect(junit.status == 5)
        #expect(junit.stderr == "gateway: cannot write \(report): the folder \(folder.file("missing")) does not exist\n")
        #expect(junit.stdout.isEmpty)

        let jobs = try gateway(["test", "--jobs", "many", quote])
        #expect(jobs.status == 2)
        #expect(jobs.stderr.hasPrefix("gateway: --jobs takes a number from 1 to 64, not 'many'\nusage: gateway [OPTIONS] test"), "\(jobs.stderr)")
        let both = try gateway(["--embedded", "test", "--live", quote])
        #expect(both.status == 2)
        #expect(both.stderr.hasPrefix("gateway: test runs in memory unless --live: --embedded and --live contradict each other\n"), "\(both.stderr)")

        // A failed expectation (1) and a folder with no scenario (5): 5.
        let failing = try scenario("failing.scenario", "--device ipad tap add\nexpect presentation.presented presentation.style=alert\n")
        let highest = try gateway(["test", failing, empty])
        #expect(highest.status == 5)
        #expect(highest.stdout == "FAIL  \(failing): 0 passed, 1 failed\nERROR \(empty): no .scenario file in this folder\n1 file(s) could not be run\n0 passed, 1 failed\n")
        let failed = try gateway(["test", failing])
        #expect(failed.status == 1)
    }
}
