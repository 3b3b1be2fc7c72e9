import Foundation
import ProcessSupport
import Testing
import TestTiers

/// Python with pyzmq, if this machine has it (`Scripts/test` installs it).
enum Python {
    static let hasZMQ: Bool = {
        let result = try? runToCompletion(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import zmq.auth"], environment: ProcessInfo.processInfo.environment)
        return result?.status == 0
    }()

    /// `Scripts/pyzmq-client.py` in this repository.
    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/pyzmq-client.py")

    /// Runs the client script with `arguments`.
    static func run(_ arguments: [String]) throws -> CommandResult {
        try runToCompletion(URL(fileURLWithPath: "/usr/bin/env"), ["python3", client.path] + arguments, environment: ProcessInfo.processInfo.environment)
    }
}

/// A pyzmq client with certificates made by `zmq.auth.create_certificates` talks to the bus
/// over CURVE once its public certificate is in `authorized/`, and is refused otherwise.
@Suite(.serialized, .enabled(if: Python.hasZMQ, "needs python3 with pyzmq (Scripts/test installs it)"), .tags(.processes))
final class PyzmqInteropTests {
    let keys: KeysFolder
    let python: String
    let stack: Stack

    init() throws {
        keys = try KeysFolder()
        python = keys.root.appendingPathComponent("python").path
        for name in ["admitted", "stranger"] {
            let made = try Python.run(["create-certificates", python, name])
            guard made.status == 0 else { throw StackError("create-certificates failed: \(made.stderr)") }
        }
        try FileManager.default.copyItem(atPath: python + "/admitted.key", toPath: keys.path + "/authorized/python-client.key")
        stack = try Stack(curve: keys)
    }

    func ping(_ name: String, timeout: String) throws -> CommandResult {
        try Python.run([
            "ping", "--frontend", stack.frontend, "--backend", stack.backend, "--certificate", python + "/\(name).key_secret",
            "--server-key", keys.path + "/bus.key", "--timeout", timeout, "bus", "presentation-policy", "roster", "input-handling",
        ])
    }

    @Test func anAuthorisedPyzmqClientGetsPongsFromTheBusAndEveryService() throws {
        let result = try ping("admitted", timeout: "10")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Set(result.messages("sys.pong").compactMap { value($0, "body.service") as? String })
            == ["bus", "presentation-policy", "roster", "input-handling"])
        #expect(stack.processes["bus"]?.logged("admitted python-client") == true)
    }

    @Test func pyzmqReadsTheCertificatesKeysInitWritesRoleMetadataIncluded() throws {
        #expect(try Certificate.load(keys.path + "/gateway.key_secret").role == "gateway")
        let result = try Python.run([
            "ping", "--frontend", stack.frontend, "--backend", stack.backend, "--certificate", keys.path + "/gateway.key_secret",
            "--server-key", keys.path + "/bus.key", "--timeout", "10", "bus", "roster",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Set(result.messages("sys.pong").compactMap { value($0, "body.service") as? String }) == ["bus", "roster"])
    }

    @Test func aPyzmqClientWhoseKeyIsNotAuthorisedIsRefused() throws {
        let result = try ping("stranger", timeout: "1")
        #expect(result.status == 1)
        #expect(result.messages("sys.pong").isEmpty)
        #expect(result.stderr.contains("no pong from bus"))
    }
}
