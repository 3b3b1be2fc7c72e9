import Foundation
import Processes
import Testing
import TestTiers

/// The bus, the services and the monitor when they cannot run (docs/configuration.md,
/// docs/gateway.md "Exit status"): status 2 and a line naming what is wrong for a bad command
/// line or setting (CURVE keys included), status 1 when they cannot start.
@Suite(.tags(.processes)) final class StartStatusTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    static let programs = ["bus", "presentation-policy", "roster", "input-handling", "monitor"]

    /// Starts `name` with `environment` (over endpoints and files of this test's folder, the
    /// monitor on any free port) and waits for it to exit: its status, or nil if it kept running
    /// (then it is stopped), and its standard error.
    func start(_ name: String, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> (status: Int32?, stderr: String) {
        let base = [
            "BUS_FRONTEND": "ipc://" + folder.file("front"), "BUS_BACKEND": "ipc://" + folder.file("back"),
            "ROSTER_DB": folder.file("roster.db"), "MONITOR_ADDRESS": "http://127.0.0.1:0",
        ]
        let child = try ChildProcess(
            name: name, executable: Products.url(name).path, arguments: arguments, environment: base.merging(environment) { $1 },
            logPath: folder.file("\(name)-\(UUID().uuidString.prefix(6)).log"))
        let status = child.waitForExit(timeout: 10)
        if status == nil { child.signal(SIGKILL) }
        return (status, child.stderr)
    }

    @Test(arguments: StartStatusTests.programs)
    func versionSaysItAndExitsZero(_ name: String) throws {
        let result = try runToCompletion(Products.url(name), ["--version"], environment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("\(name) 0.") && result.stdout.split(separator: "\n").count == 1, "\(result.stdout)")
    }

    @Test(arguments: StartStatusTests.programs)
    func aBadCommandLineOrSettingStopsItWithTwoNamingIt(_ name: String) throws {
        let longPath = "ipc://" + folder.file(String(repeating: "p", count: 120))
        let cases: [(arguments: [String], environment: [String: String], says: String)] = [
            (["--bogus"], [:], "\(name): unknown option '--bogus' (try --help)"),
            ([], ["HEARTBEAT_INTERVAL_MS": "abc"], "\(name): HEARTBEAT_INTERVAL_MS must be a number of milliseconds from 10 to 60000, not 'abc'"),
            ([], ["BUS_FRONTEND": "nowhere"],
             "\(name): BUS_FRONTEND=nowhere is not a ZeroMQ endpoint the bus can use: it must be tcp://HOST:PORT, ipc://PATH or inproc://NAME"),
            ([], ["BUS_BACKEND": longPath], "\(name): BUS_BACKEND=\(longPath) is not a ZeroMQ endpoint the bus can use: an ipc:// path is at most 107 bytes"),
            ([], ["BUS_FRONTEND": "ipc://\(folder.file("front")),ipc://\(folder.file("front-b"))"],
             "\(name): BUS_FRONTEND lists 2 bus(es) and BUS_BACKEND 1: both list the same buses in the same order"),
            ([], ["BUS_KEYS_DIR": folder.file("no-keys")], "\(name): BUS_KEYS_DIR: cannot read \(folder.file("no-keys"))/\(name).key_secret"),
        ]
        for (arguments, environment, says) in cases {
            let (status, stderr) = try start(name, arguments, environment: environment)
            #expect(status == 2, "\(arguments) \(environment): \(stderr)")
            #expect(stderr.hasPrefix(says), "\(arguments) \(environment): \(stderr)")
        }
    }

    @Test(arguments: ["presentation-policy", "roster", "input-handling"])
    func aSettingTheServiceReadsItselfIsConfigurationToo(_ name: String) throws {
        var cases: [(environment: [String: String], says: String)] = [
            (["DEVICE_IDLE_EXPIRY_SECONDS": "soon"], "DEVICE_IDLE_EXPIRY_SECONDS must be a positive number of seconds (default 2592000, 30 days), not 'soon'"),
        ]
        cases += [
            (["ETCD_ENDPOINTS": "etcd:2379"], "ETCD_ENDPOINTS entry 1 of 1: etcd endpoint 'etcd:2379' is not an http URL (http://HOST:PORT or https://HOST:PORT)"),
            (["ETCD_ENDPOINTS": "http://127.0.0.1:2379", "ETCD_TLS_CA": "/etc/ca.crt"],
             "ETCD_TLS_CA set, but ETCD_ENDPOINTS are http:// URLs: etcd over TLS needs https://"),
            (["ETCD_ENDPOINTS": "https://127.0.0.1:2379", "ETCD_TLS_CERT": "/etc/client.crt"],
             "ETCD_TLS_CERT set without ETCD_TLS_KEY (the client certificate needs both)"),
            (["ETCD_ENDPOINTS": "https://127.0.0.1:2379", "ETCD_TLS_CA": "/nonexistent/ca.crt"],
             "ETCD_TLS_CA '/nonexistent/ca.crt': No such file or directory"),
            (["ETCD_ENDPOINTS": "http://127.0.0.1:2379", "SHARD_LEASE_TTL_SECONDS": "0"],
             "SHARD_LEASE_TTL_SECONDS must be a whole number of seconds from 1 to 300, not '0'"),
        ]
        for (environment, says) in cases {
            let (status, stderr) = try start(name, environment: environment)
            #expect(status == 2, "\(environment): \(stderr)")
            #expect(stderr.contains("\(name): \(says)\n"), "\(environment): \(stderr)")
        }
    }

    /// The sharded services' first call is a read of the members (they join once they hear the
    /// bus); the roster's, a read of the leader key.
    @Test(arguments: [("presentation-policy", "/v3/kv/range"), ("input-handling", "/v3/kv/range"), ("roster", "/v3/kv/range")])
    func aServiceWhoseEtcdDoesNotAnswerCannotStart(_ name: String, _ call: String) throws {
        let endpoint = "http://127.0.0.1:\(try HeldPort().port)"   // released at once: nothing listens there
        let (status, stderr) = try start(name, environment: ["ETCD_ENDPOINTS": endpoint])
        #expect(status == 1, "\(stderr)")
        #expect(stderr.contains("\(name) error: cannot start: \(call): etcd at \(endpoint)"), "\(stderr)")
    }

    @Test func anAddressInUseStopsTheBusAndTheMonitorWithOne() throws {
        let held = try HeldPort()
        let address = "127.0.0.1:\(held.port)"
        let bus = try start("bus", environment: ["BUS_FRONTEND": "tcp://\(address)"])
        #expect(bus.status == 1, "\(bus.stderr)")
        #expect(bus.stderr.contains("bus error: bind tcp://\(address): Address already in use"), "\(bus.stderr)")
        let monitor = try start("monitor", environment: ["MONITOR_ADDRESS": "http://\(address)"])
        #expect(monitor.status == 1, "\(monitor.stderr)")
        #expect(monitor.stderr.contains("monitor error: "), "\(monitor.stderr)")
        #expect(monitor.stderr.contains(address) && monitor.stderr.contains("Address already in use"), "\(monitor.stderr)")
    }
}
