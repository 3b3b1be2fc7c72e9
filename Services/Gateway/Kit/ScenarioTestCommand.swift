import Foundation
import ProcessSupport
import Synchronization
import Wire

/// `gateway test [PATH…] [--live] [--jobs N] [--junit FILE]`, parsed.
public struct ScenarioTestRequest: Sendable, Equatable {
    /// The files and folders to run (a folder: every `.scenario` file under it).
    public var paths: [String]
    /// Against the bus and the services running (`--live`), instead of in memory.
    public var live: Bool
    /// How many files run at once (`--jobs N`).
    public var jobs: Int
    /// Where to write the JUnit XML report (`--junit FILE`), if anywhere.
    public var junit: String?

    /// What `gateway test` runs when given no path.
    public static let defaultPaths = ["Scenarios"]

    /// A request from its parts.
    public init(paths: [String] = defaultPaths, live: Bool = false, jobs: Int = 1, junit: String? = nil) {
        self.paths = paths; self.live = live; self.jobs = jobs; self.junit = junit
    }
}

/// `gateway test`: runs every scenario file under the paths and reports each expectation — a
/// line per file on standard output, the failures on standard error, then `N passed, M failed`
/// (and `, K skipped`), and JUnit XML with `--junit`. In memory each file has services of its
/// own; live, each file's devices get ids of their own (`ID-` and 8 hex digits), so files can run
/// at once against one stack. Exit status: 5 if a file or folder cannot be read (or holds no
/// scenario), else 2 if a file has a line that is not a scenario's, else 1 if an expectation
/// failed or was skipped or an action could not be performed, else 0.
struct ScenarioTestCommand: Sendable {
    let request: ScenarioTestRequest
    let invocation: Invocation
    let environment: [String: String]
    let config: BusConfig
    let embedded: EmbeddedStack.Start?

    /// Runs the files; returns the exit status.
    func run() -> Int32 {
        if request.live && invocation.embedded {
            return usage("test runs in memory unless --live: --embedded and --live contradict each other")
        }
        if !request.live && embedded == nil { return usage("running in memory is not available in this build: use --live") }
        if let junit = request.junit {
            do {
                try ScreenCommand.checkWritable(junit)
            } catch {
                Log.standardError("gateway: \(error.description)\n")
                return ExitStatus.file
            }
        }
        let files = Self.scenarioFiles(under: request.paths)
        let board = ResultBoard(count: files.count)
        let workers = (0..<max(1, min(request.jobs, files.count))).map { _ in
            OSThread {
                while let index = board.take() {
                    board.finish(index, result: files[index].problem.map { Self.unrun(files[index].path, $0) } ?? runFile(files[index].path))
                }
            }
        }
        for worker in workers { worker.join() }
        let results = board.results
        let unrun = results.count(where: { $0.problem != nil })
        if unrun > 0 { print("\(unrun) file(s) could not be run") }
        let skipped = results.reduce(0) { $0 + $1.skipped }
        print("\(results.reduce(0) { $0 + $1.passed }) passed, \(results.reduce(0) { $0 + $1.failed }) failed" + (skipped > 0 ? ", \(skipped) skipped" : ""))
        if let junit = request.junit {
            do {
                try Data(JUnitReport.xml(results).utf8).write(to: URL(fileURLWithPath: junit))
            } catch {
                Log.standardError("gateway: cannot write \(junit): \(error)\n")
                return ExitStatus.file
            }
        }
        if results.contains(where: { $0.problem?.status == ExitStatus.file }) { return ExitStatus.file }
        if results.contains(where: { $0.problem?.status == ExitStatus.usage || $0.actionErrors.contains { $0.status == ExitStatus.usage } }) {
            return ExitStatus.usage
        }
        return results.allSatisfy(\.succeeded) ? ExitStatus.ok : ExitStatus.refused
    }

    private func usage(_ message: String) -> Int32 {
        Log.standardError("gateway: \(message)\nusage: gateway [OPTIONS] \(GatewayCommands.command(named: "test")?.usage ?? "test")\n")
        return ExitStatus.usage
    }

    /// One file, on the calling thread, with a connection (and in memory, services) of its own, timed.
    private func runFile(_ path: String) -> ScenarioFileResult {
        let started = Timestamp.monotonic()
        var result = runUntimed(path)
        result.seconds = Timestamp.monotonic() - started
        return result
    }

    private func runUntimed(_ path: String) -> ScenarioFileResult {
        var result = ScenarioFileResult(path: path)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            result.problem = ActionError(line: 0, message: "cannot read the scenario file", status: ExitStatus.file)
            return result
        }
        let steps: [ScenarioStep]
        do {
            steps = try ScenarioParser.parse(text)
        } catch {
            result.problem = ActionError(line: 0, message: error.description, status: ExitStatus.usage)
            return result
        }
        var stack: EmbeddedStack?
        defer { stack?.stop() }
        let client: GatewayClient
        do {
            // In memory `run()` made sure there is a way to start the services.
            if let embedded, !request.live {
                let started = try embedded(config)
                stack = started
                client = GatewayClient(transport: started.transport, config: config)
            } else {
                client = try GatewayClient(config: config)
            }
        } catch {
            result.problem = ActionError(line: 0, message: "cannot connect: \(error)", status: ExitStatus.of(error))
            return result
        }
        client.retryInterval = invocation.retryInterval
        let session = GatewaySession(client: client, output: Output(json: false, formatter: HumanFormatter(colors: false), silent: true))
        let suffix = "-" + Topic.newAddress().prefix(8)
        let lines = ScenarioLines(
            invocation: invocation, environment: environment, session: session,
            deviceName: request.live ? { Self.ownName($0, suffix: suffix) } : { $0 })
        ScenarioCheck.run(steps, into: &result, perform: lines.perform)
        return result
    }

    /// `device` with this file's `suffix`, kept within the 64 characters of a device id.
    static func ownName(_ device: String, suffix: String) -> String {
        var kept = device
        while !kept.isEmpty && kept.utf8.count + suffix.utf8.count > 64 { kept.removeLast() }
        return kept + suffix
    }

    private static func unrun(_ path: String, _ problem: ActionError) -> ScenarioFileResult {
        var result = ScenarioFileResult(path: path)
        result.problem = problem
        return result
    }

    /// Every `.scenario` file under `paths`, in the order given (a folder's sorted, its
    /// subfolders' included; a file named is taken whatever its name), each once; a path that
    /// cannot be read, or a folder with no scenario, comes with the problem.
    static func scenarioFiles(under paths: [String]) -> [(path: String, problem: ActionError?)] {
        // A path that cannot be run: about the path as a whole (no line), exit 5.
        func fileProblem(_ message: String) -> ActionError { ActionError(line: 0, message: message, status: ExitStatus.file) }
        var found: [(path: String, problem: ActionError?)] = []
        var seen: Set<String> = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                found.append((path, fileProblem("no such file or folder")))
                continue
            }
            guard isFolder.boolValue else {
                if seen.insert(path).inserted { found.append((path, nil)) }
                continue
            }
            guard let enumerator = FileManager.default.enumerator(atPath: path) else {
                found.append((path, fileProblem("cannot read the folder")))
                continue
            }
            let folder = path.hasSuffix("/") ? path : path + "/"
            let files = enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".scenario") }.sorted().map { folder + $0 }
            if files.isEmpty { found.append((path, fileProblem("no .scenario file in this folder"))) }
            for file in files where seen.insert(file).inserted { found.append((file, nil)) }
        }
        return found
    }

    /// The line `gateway test` prints for `result`, and the details for standard error.
    static func report(_ result: ScenarioFileResult) -> (line: String, details: [String]) {
        if let problem = result.problem {
            return ("ERROR \(result.path): \(problem.message)", ["\(result.path): \(problem.message)"])
        }
        var counts = "\(result.passed) passed"
        if result.failed > 0 { counts += ", \(result.failed) failed" }
        if result.skipped > 0 { counts += ", \(result.skipped) skipped" }
        if !result.actionErrors.isEmpty { counts += ", \(result.actionErrors.count) action(s) not performed" }
        var details: [String] = result.actionErrors.map { "\(result.place($0.line)): \($0.message)" }
        for expectation in result.expectations {
            switch expectation.verdict {
            case .passed: break
            case .failed(let message): details.append("\(result.place(expectation.line)): expectation failed: \(message)")
            case .skipped(let reason): details.append("\(result.place(expectation.line)): skipped: \(reason)")
            }
        }
        return ("\(result.succeeded ? "PASS " : "FAIL ") \(result.path): \(counts)", details)
    }
}

/// The files of one `gateway test` and their results, shared by its worker threads: each takes
/// the next file to run, and each file's line is printed as soon as it and every file before it
/// are done, so the output is in the files' order however many run at once.
private final class ResultBoard: Sendable {
    private struct State {
        var next = 0
        var printed = 0
        var results: [ScenarioFileResult?]
    }

    private let state: Mutex<State>
    private let count: Int

    init(count: Int) {
        self.count = count
        state = Mutex(State(results: Array(repeating: nil, count: count)))
    }

    /// The index of the next file to run, if any is left.
    func take() -> Int? {
        state.withLock { state in
            guard state.next < count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    /// Records file `index`'s result and prints every line now in order.
    func finish(_ index: Int, result: ScenarioFileResult) {
        state.withLock { state in
            state.results[index] = result
            while state.printed < count, let done = state.results[state.printed] {
                let (line, details) = ScenarioTestCommand.report(done)
                print(line)
                fflush(nil)
                for detail in details { Log.standardError("gateway: \(detail)\n") }
                state.printed += 1
            }
        }
    }

    /// Every result, in the files' order (once every file has finished).
    var results: [ScenarioFileResult] { state.withLock { $0.results.compactMap { $0 } } }
}
