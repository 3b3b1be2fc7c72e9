import ProcessSupport
import Testing
import TestTiers

/// `BUS_FRONTEND` and `BUS_BACKEND` are checked when a process reads its configuration: a value
/// libzmq would refuse is a `ConfigError` naming the variable (exit 2; the gateway's 4).
@Suite(.tags(.unit)) struct BusEndpointTests {
    /// The problem `BusConfig` finds with `value` as `BUS_BACKEND` for `component`, if any.
    func problem(_ value: String, component: String = "roster") -> String? {
        do {
            _ = try BusConfig.fromEnvironment(["BUS_BACKEND": value], component: component)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theEndpointsLibzmqTakesAreAccepted() {
        for value in ["tcp://127.0.0.1:5556", "tcp://bus:5556", "tcp://bus.monsterbus.svc.cluster.local:5556", "tcp://[::1]:5556",
                      "tcp://eth0:0", "ipc:///tmp/monster/backend", "ipc://@abstract", "inproc://backend",
                      "ipc://" + String(repeating: "p", count: 107)] {
            #expect(problem(value) == nil, "\(value)")
        }
        // Only the bus binds: every interface, any free port.
        for value in ["tcp://*:5556", "tcp://127.0.0.1:*", "tcp://0.0.0.0:5556"] {
            #expect(problem(value, component: "bus") == nil, "\(value)")
        }
    }

    @Test func anEndpointLibzmqRefusesIsAConfigErrorNamingTheVariableAndWhy() {
        let cases: [(value: String, why: String)] = [
            ("bus:5556", "it must be tcp://HOST:PORT, ipc://PATH or inproc://NAME"),
            ("udp://bus:5556", "it must be tcp://HOST:PORT, ipc://PATH or inproc://NAME"),
            ("tcp://127.0.0.1", "tcp:// needs HOST:PORT"),
            ("tcp://127.0.0.1:port", "'port' is not a port number"),
            ("tcp://127.0.0.1:70000", "'70000' is not a port number"),
            ("tcp://127.0.0.1:+5", "'+5' is not a port number"),
            ("tcp://127.0.0.1:*", "'*' is not a port number"),
            ("tcp://*:5556", "'*' is not a host name or address"),
            ("tcp://:5556", "'' is not a host name or address"),
            ("tcp://bus host:5556", "'bus host' is not a host name or address"),
            ("tcp://-bus:5556", "'-bus' is not a host name or address"),
            ("ipc://", "ipc:// needs a path"),
            ("ipc://" + String(repeating: "p", count: 108), "an ipc:// path is at most 107 bytes, not 108"),
            ("inproc://", "inproc:// needs a name"),
        ]
        for (value, why) in cases {
            #expect(problem(value) == "BUS_BACKEND=\(value) is not a ZeroMQ endpoint the bus can use: \(why)", "\(value)")
        }
        #expect(problem("tcp://127.0.0.1:port", component: "bus")?.hasSuffix("'port' is not a port number or *") == true)
        #expect(throws: ConfigError.self) { try BusConfig.fromEnvironment(["BUS_FRONTEND": "nowhere"], component: "bus") }
    }
}

/// `BUS_FRONTEND` and `BUS_BACKEND` listing a pair of buses: the same number of endpoints, at
/// most two, each checked like one; the bus itself binds one.
@Suite(.tags(.unit)) struct BusPairConfigTests {
    func buses(_ frontend: String, _ backend: String, component: String = "roster") -> Result<[String], ConfigError> {
        Result { () throws(ConfigError) -> [String] in
            try BusConfig.fromEnvironment(["BUS_FRONTEND": frontend, "BUS_BACKEND": backend], component: component)
                .buses().map { "\($0.frontend) \($0.backend)" }
        }
    }

    func problem(_ frontend: String, _ backend: String, component: String = "roster") -> String? {
        if case .failure(let error) = buses(frontend, backend, component: component) { return error.description }
        return nil
    }

    @Test func oneEndpointIsOneBusAndTwoArePairedInOrder() throws {
        #expect(try buses("tcp://bus:5555", "tcp://bus:5556").get() == ["tcp://bus:5555 tcp://bus:5556"])
        #expect(try buses("tcp://bus:5555,tcp://bus-b:5555", "tcp://bus:5556, tcp://bus-b:5556").get()
            == ["tcp://bus:5555 tcp://bus:5556", "tcp://bus-b:5555 tcp://bus-b:5556"])
        #expect(try BusConfig().buses().count == 1)
    }

    @Test func aBrokenListIsRefusedNamingTheVariable() {
        #expect(problem("tcp://a:1,tcp://b:1", "tcp://a:2") == "BUS_FRONTEND lists 2 bus(es) and BUS_BACKEND 1: both list the same buses in the same order")
        #expect(problem("tcp://a:1,tcp://b:1,tcp://c:1", "tcp://a:2,tcp://b:2,tcp://c:2")
            == "BUS_FRONTEND=tcp://a:1,tcp://b:1,tcp://c:1 lists 3 buses: at most 2 (a pair)")
        #expect(problem("tcp://a:1", "tcp://a:2,") == "BUS_BACKEND=tcp://a:2, has an empty entry: list one endpoint, or two separated by a comma")
        #expect(problem("tcp://a:1,tcp://a:1", "tcp://a:2,tcp://b:2") == "BUS_FRONTEND=tcp://a:1,tcp://a:1 names the same endpoint twice: a pair is two buses")
        // Each entry is checked as one endpoint is, and named.
        #expect(problem("tcp://a:1,tcp://b", "tcp://a:2,tcp://b:2") == "BUS_FRONTEND=tcp://b is not a ZeroMQ endpoint the bus can use: tcp:// needs HOST:PORT")
        #expect(problem("tcp://*:1,tcp://*:2", "tcp://*:3,tcp://*:4", component: "bus")?.hasPrefix("BUS_FRONTEND=tcp://*:1,tcp://*:2 lists 2 buses: a bus binds one") == true)
    }
}
