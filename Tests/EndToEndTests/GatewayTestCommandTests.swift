import Foundation
import Testing
import TestTiers

/// Python with `junitparser` (a JUnit consumer from PyPI; Scripts/test installs it).
enum JUnitConsumer {
    static let available: Bool = {
        let result = try? runToCompletion(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import junitparser"], environment: ProcessInfo.processInfo.environment)
        return result?.status == 0
    }()

    /// What junitparser reads in `file`: the totals the root states, and those counted from the
    /// test cases themselves, with the names of the cases that failed.
    static func read(_ file: String) throws -> [String: Any] {
        let program = """
            import json, sys
            from junitparser import JUnitXml, Failure, Skipped, Error
            xml = JUnitXml.fromfile(sys.argv[1])
            suites = list(xml)
            cases = [case for suite in suites for case in suite]
            def having(kind):
                return [case for case in cases if any(isinstance(result, kind) for result in case.result)]
            print(json.dumps({
                "suites": len(suites), "tests": xml.tests, "failures": xml.failures, "errors": xml.errors, "skipped": xml.skipped,
                "cases": len(cases), "passed": len([case for case in cases if case.is_passed]),
                "failedCases": [case.name for case in having(Failure)], "skippedCases": len(having(Skipped)),
                "messages": [result.message for case in having(Failure) for result in case.result],
                "suiteTestsAgree": all(suite.tests == len(list(suite)) for suite in suites),
            }))
            """
        let result = try runToCompletion(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", program, file], environment: ProcessInfo.processInfo.environment)
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw StackError("junitparser could not read \(file): \(result.stderr)")
        }
        return object
    }
}

/// `gateway test`: the shipped scenarios, a broken copy, JUnit read back by a consumer from
/// PyPI, and files at once, in memory and against the real processes.
@Suite(.serialized, .tags(.processes)) final class GatewayTestCommandTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    static let scenarios = GatewayToolTests.root.appendingPathComponent("Scenarios")

    /// `gateway ARGUMENTS…` with `environment` (none of the bus's: in memory).
    func gateway(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CommandResult {
        var environment = environment
        environment["NO_COLOR"] = "1"
        return try runToCompletion(Products.url("gateway"), arguments, environment: environment)
    }

    /// The expectations of each scenario file in `folder`, counted from the text.
    static func expectationCounts(in folder: URL) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".scenario") {
            let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            counts[name] = text.split(separator: "\n").count { line in
                let first = line.split(separator: " ").first
                return first == "expect" || first == "expect-no"
            }
        }
        return counts
    }

    /// A copy of Scenarios/ in this test's folder with plus-button-ipad.scenario's first
    /// expectation broken; returns the copy's folder and the broken line's number.
    func brokenCopy() throws -> (folder: URL, line: Int) {
        let copy = folder.appendingPathComponent("flows")
        try FileManager.default.copyItem(at: Self.scenarios, to: copy)
        let file = copy.appendingPathComponent("plus-button-ipad.scenario")
        var lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.hasPrefix("expect presentation.presented presentation.style=popover") })
        lines[index] = lines[index].replacingOccurrences(of: "style=popover", with: "style=alert")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        return (copy, index + 1)
    }

    @Test func theShippedScenariosPassInMemoryWithTheRightCount() throws {
        let counts = try Self.expectationCounts(in: Self.scenarios)
        let total = counts.values.reduce(0, +)
        #expect(counts.count >= 16 && total > 100)
        let result = try gateway(["test", Self.scenarios.path])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "\(total) passed, 0 failed")
        for (name, count) in counts {
            #expect(lines.contains("PASS  \(Self.scenarios.path)/\(name): \(count) passed"), "\(name)")
        }
        #expect(lines.count == counts.count + 1)
    }

    @Test(.enabled(if: JUnitConsumer.available, "needs python3 with junitparser (Scripts/test installs it)"))
    func aBrokenExpectationIsReportedByLineAndTheRestStillRun_inTheJUnitReportToo() throws {
        let (copy, line) = try brokenCopy()
        let counts = try Self.expectationCounts(in: copy)
        let total = counts.values.reduce(0, +)
        let report = folder.appendingPathComponent("report.xml").path
        let result = try gateway(["test", "--junit", report, copy.path])
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        let broken = copy.appendingPathComponent("plus-button-ipad.scenario").path
        #expect(result.stderr.contains("\(broken):\(line): expectation failed: expect presentation.presented presentation.style=alert"))
        #expect(result.stderr.contains("presentation.style is popover, not alert"))
        // Only that one: the later expectations of the file ran and passed.
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stdout.contains("FAIL  \(broken): \(try #require(counts["plus-button-ipad.scenario"]) - 1) passed, 1 failed"))
        #expect(result.stdout.hasSuffix("\(total - 1) passed, 1 failed\n"))

        let read = try JUnitConsumer.read(report)
        #expect(read["suites"] as? Int == counts.count)
        #expect(read["tests"] as? Int == total && read["cases"] as? Int == total)
        #expect(read["failures"] as? Int == 1 && read["errors"] as? Int == 0 && read["skipped"] as? Int == 0)
        #expect(read["passed"] as? Int == total - 1)
        #expect(read["failedCases"] as? [String] == ["\(broken):\(line)"])
        #expect((read["messages"] as? [String])?.first?.contains("the only one (from presentation-policy): presentation.style is popover, not alert") == true)
        #expect(read["suiteTestsAgree"] as? Bool == true)
    }

    @Test func fourFilesAtOnceGiveWhatOneAtATimeGives_inMemoryAndLive() throws {
        let (copy, _) = try brokenCopy()
        let one = try gateway(["test", "--jobs", "1", copy.path])
        let four = try gateway(["test", "--jobs", "4", copy.path])
        #expect(one.status == 1 && four.status == 1)
        #expect(one.stdout == four.stdout)
        #expect(one.stderr == four.stderr)
        let stack = try Stack()
        let liveOne = try stack.gateway(["test", "--live", "--jobs", "1", copy.path])
        let liveFour = try stack.gateway(["test", "--live", "--jobs", "4", copy.path])
        #expect(liveOne.status == 1 && liveFour.status == 1, "\(liveFour.stderr)")
        #expect(liveOne.stdout == liveFour.stdout)
        #expect(liveOne.stderr == liveFour.stderr)
        // And the bus gives what memory gives.
        #expect(liveOne.stdout == one.stdout)
    }

    @Test func aShellDescribesADeviceWhateverItsFirstAction() throws {
        let result = try runToCompletion(
            Products.url("gateway"), ["--embedded", "shell"],
            environment: ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 },
            stdin: "--device d --profile iphone roster\n--device d select Cat-Bot\nexpect roster.selection monster.name=Cat-Bot\n--device d tap add\nexpect presentation.presented presentation.style=alert\n")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(!result.stdout.contains("unknown-device") && !result.stderr.contains("unknown-device"))
        #expect(result.stdout.contains("✓ expect presentation.presented presentation.style=alert"))
    }

    @Test func exitStatusesSayWhatWentWrong() throws {
        let bad = folder.appendingPathComponent("bad.scenario")
        try "--device ipad fly\nexpect presentation.presented\n--device ipad tap add\nexpect presentation.presented presentation.style=popover\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let usage = try gateway(["test", bad.path])
        #expect(usage.status == 2, "\(usage.stderr)")
        #expect(usage.stdout.contains("FAIL  \(bad.path): 1 passed, 1 skipped, 1 action(s) not performed"))
        #expect(usage.stderr.contains("\(bad.path):1: unknown command 'fly'"))
        #expect(usage.stderr.contains("\(bad.path):2: skipped: its action at line 1 was not performed"))
        #expect(usage.stdout.hasSuffix("1 passed, 0 failed, 1 skipped\n"))

        let missing = try gateway(["test", folder.appendingPathComponent("nowhere").path, bad.path])
        #expect(missing.status == 5)
        #expect(missing.stdout.contains("ERROR \(folder.path)/nowhere: no such file or folder"))

        #expect(try gateway(["test", "--jobs", "many"]).status == 2)
        #expect(try gateway(["test", "--junit", folder.appendingPathComponent("no-folder/r.xml").path, bad.path]).status == 5)
        #expect(try gateway(["test", "--live", "--embedded", bad.path]).status == 2)
        // Live with no bus: the actions time out, their expectations are skipped, and it says so.
        let nowhere = "ipc://" + folder.appendingPathComponent("no-bus").path
        let alone = try gateway(
            ["--timeout", "0.5", "test", "--live", bad.path],
            environment: ProcessInfo.processInfo.environment.merging(["BUS_FRONTEND": nowhere, "BUS_BACKEND": nowhere + "-b"]) { $1 })
        #expect(alone.status == 2, "\(alone.stderr)")
        #expect(alone.stderr.contains("\(bad.path):3: no answer from presentation-policy"))
        #expect(alone.stdout.hasSuffix("0 passed, 0 failed, 2 skipped\n"))
    }
}
