// swift-tools-version:6.0
import PackageDescription

/// One set of settings for every Swift target: Swift 6 mode, warnings are errors.
let strict: [SwiftSetting] = [
    .unsafeFlags(["-warnings-as-errors"]),
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
]

/// A test target: its folder is `Tests/NAME`; every suite in it is tagged with a tier (`TestTiers`).
func tests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies + ["TestTiers"], path: "Tests/" + name, swiftSettings: strict)
}

// Linux only (Debian): the code calls Glibc and Linux's pidfd_open directly, so
// the package claims no Apple platform.
let package = Package(
    name: "MonsterBus",
    products: [
        .executable(name: "bus", targets: ["Bus"]),
        .executable(name: "presentation-policy", targets: ["PresentationPolicy"]),
        .executable(name: "roster", targets: ["Roster"]),
        .executable(name: "input-handling", targets: ["InputHandling"]),
        .executable(name: "gateway", targets: ["Gateway"]),
        .executable(name: "bench", targets: ["Bench"]),
        .executable(name: "monitor", targets: ["Monitor"]),
    ],
    targets: [
        // C libraries from Debian, through module maps (no pkg-config: it emits -isystem).
        .systemLibrary(name: "CZeroMQ", path: "Shared/CZeroMQ"),
        .systemLibrary(name: "CSQLite", path: "Shared/CSQLite"),
        .systemLibrary(name: "CMicroHTTPD", path: "Shared/CMicroHTTPD"),
        .systemLibrary(name: "CLinux", path: "Shared/CLinux"),
        .systemLibrary(name: "COpenSSL", path: "Shared/COpenSSL"),

        // Shared Swift modules, each above the ones it depends on.
        // State one thread owns, used without run-time exclusivity checks (`ThreadOwned`).
        .target(name: "ThreadOwnership", path: "Shared/ThreadOwnership", swiftSettings: strict),
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ", "ThreadOwnership"], path: "Shared/ZeroMQ", swiftSettings: strict),
        // JSON text: the one reader and the one writer, and a tree for documents and tools.
        .target(name: "JSON", dependencies: ["ThreadOwnership"], path: "Shared/JSON", swiftSettings: strict),
        // The domain model: devices, geometry, presentations, monsters, weapons, codes, effects.
        // The only project module a core imports.
        .target(name: "Domain", path: "Shared/Domain", swiftSettings: strict),
        // The wire: the envelope, the vocabulary, topics and routing, time, trace context, the codec.
        .target(name: "Wire", dependencies: ["Domain", "JSON"], path: "Shared/Wire", swiftSettings: strict),
        // What every process of the project needs: logs, help, certificates, threads, signals.
        .target(name: "ProcessSupport", dependencies: ["Wire", "JSON", "ZeroMQ", "CLinux"], path: "Shared/ProcessSupport", swiftSettings: strict),
        // A service's loop around its handler, over any transport (the in-memory bus among them).
        .target(name: "Runtime", dependencies: ["Wire", "BusCore", "ProcessSupport", "ThreadOwnership"], path: "Shared/Runtime", swiftSettings: strict),
        // The runtime's transport over ZeroMQ: the connection to the bus, its configuration, CURVE.
        .target(name: "ZeroMQTransport", dependencies: ["Runtime", "ZeroMQ", "ProcessSupport", "ThreadOwnership"], path: "Shared/ZeroMQTransport", swiftSettings: strict),
        // Sharded instances: membership and snapshots in etcd over HTTP, with TLS or without.
        .target(name: "Sharding", dependencies: ["Runtime", "ProcessSupport", "JSON", "COpenSSL"], path: "Shared/Sharding", swiftSettings: strict),
        // Starting a service process: options, configuration, sharded or not, on the ZeroMQ bus.
        .target(name: "ServiceLaunch", dependencies: ["ZeroMQTransport", "Sharding"], path: "Shared/ServiceLaunch", swiftSettings: strict),
        // Starting and stopping the project's processes (a child, a stack of bus and services, etcd),
        // shared by the end-to-end tests and the bench.
        .target(name: "Processes", dependencies: ["Sharding", "ProcessSupport", "CLinux"], path: "Shared/Processes", swiftSettings: strict),
        // The contract: the AsyncAPI document recorded from the message declarations, and a validator.
        .target(name: "Contract", dependencies: ["Wire", "JSON"], path: "Shared/Contract", swiftSettings: strict),

        // The bus: its policy (a pure core) and the proxy.
        .target(name: "BusCore", dependencies: ["Wire", "JSON"], path: "Services/Bus/Core", swiftSettings: strict),
        .executableTarget(name: "Bus", dependencies: ["BusCore", "ZeroMQTransport", "ThreadOwnership"], path: "Services/Bus/Main", swiftSettings: strict),

        // presentation-policy: a pure core and its bus adapter.
        .target(name: "PresentationCore", dependencies: ["Domain"], path: "Services/PresentationPolicy/Core", swiftSettings: strict),
        .target(name: "PresentationService", dependencies: ["PresentationCore", "Runtime"], path: "Services/PresentationPolicy/Service", swiftSettings: strict),
        .executableTarget(name: "PresentationPolicy", dependencies: ["PresentationService", "ServiceLaunch"], path: "Services/PresentationPolicy/Main", swiftSettings: strict),

        // roster: a pure core, its SQLite store, its data in etcd, and its bus adapter.
        .target(name: "RosterCore", dependencies: ["Domain"], path: "Services/Roster/Core", swiftSettings: strict),
        .target(name: "RosterStore", dependencies: ["RosterCore", "CSQLite"], path: "Services/Roster/Store", swiftSettings: strict),
        .target(name: "RosterService", dependencies: ["RosterCore", "RosterStore", "Runtime"], path: "Services/Roster/Service", swiftSettings: strict),
        // With ETCD_ENDPOINTS: the roster's data in etcd, one writer among its instances.
        .target(name: "RosterEtcd", dependencies: ["RosterCore", "RosterStore", "Runtime", "Sharding"], path: "Services/Roster/Etcd", swiftSettings: strict),
        .executableTarget(name: "Roster", dependencies: ["RosterService", "RosterStore", "RosterEtcd", "ServiceLaunch"], path: "Services/Roster/Main", swiftSettings: strict),

        // input-handling: a pure core and its bus adapter.
        .target(name: "InputCore", dependencies: ["Domain"], path: "Services/InputHandling/Core", swiftSettings: strict),
        .target(name: "InputService", dependencies: ["InputCore", "Runtime"], path: "Services/InputHandling/Service", swiftSettings: strict),
        .executableTarget(name: "InputHandling", dependencies: ["InputService", "ServiceLaunch"], path: "Services/InputHandling/Main", swiftSettings: strict),

        // gateway: the CLI's logic as a library, and the executable.
        .target(name: "GatewayKit", dependencies: ["ZeroMQTransport", "Contract"], path: "Services/Gateway/Kit", swiftSettings: strict),
        // The real handlers in the gateway's own process over an in-memory bus (`gateway --embedded`).
        .target(
            name: "Embedded", dependencies: ["Runtime", "PresentationService", "InputService", "RosterService", "RosterStore"],
            path: "Services/Gateway/Embedded", swiftSettings: strict),
        .executableTarget(name: "Gateway", dependencies: ["GatewayKit", "Embedded"], path: "Services/Gateway/Main", swiftSettings: strict),

        // monitor: the web page of live screens, timeline and health (MonitorKit: its pure parts),
        // served by libmicrohttpd.
        .target(name: "MonitorKit", dependencies: ["GatewayKit"], path: "Services/Monitor/Kit", swiftSettings: strict),
        .executableTarget(name: "Monitor", dependencies: ["MonitorKit", "CMicroHTTPD", "CLinux"], path: "Services/Monitor/Main", swiftSettings: strict),

        // bench: raw libzmq through the bus against the product. It depends on the service
        // executables only so that `swift run bench` builds them: it starts them as processes.
        .executableTarget(
            name: "Bench",
            dependencies: ["ZeroMQ", "ZeroMQTransport", "ThreadOwnership", "Processes", "Bus", "PresentationPolicy", "Roster", "InputHandling"],
            path: "Benchmarks/Bench",
            swiftSettings: strict
        ),

        // Tests, and what several of them share: sample messages, seeded randomness.
        .target(name: "TestSupport", dependencies: ["Domain", "Wire"], path: "Tests/Support", swiftSettings: strict),
        .target(name: "TestTiers", path: "Tests/Tiers", swiftSettings: strict),
        tests("ThreadOwnershipTests", ["ThreadOwnership"]),
        tests("ZeroMQTests", ["ZeroMQ"]),
        tests("JSONTests", ["JSON"]),
        tests("DomainTests", ["Domain"]),
        tests("WireTests", ["Wire", "Domain", "JSON", "TestSupport"]),
        tests("ProcessSupportTests", ["ProcessSupport", "Runtime", "Processes", "ZeroMQ"]),
        tests("RuntimeTests", ["Runtime", "TestSupport"]),
        tests("ZeroMQTransportTests", ["ZeroMQTransport", "ZeroMQ"]),
        tests("ShardingTests", ["Sharding", "Runtime", "Processes"]),
        tests("BusCoreTests", ["BusCore", "Processes", "TestSupport"]),
        tests("ContractTests", ["Contract"]),
        tests("PresentationCoreTests", ["PresentationCore", "PresentationService", "Wire"]),
        tests("PresentationServiceTests", ["PresentationService", "PresentationCore"]),
        tests("RosterTests", ["RosterCore", "RosterStore", "RosterService", "RosterEtcd", "Sharding"]),
        tests("InputCoreTests", ["InputCore", "Wire"]),
        tests("GatewayKitTests", ["GatewayKit", "Contract", "InputCore", "PresentationCore"]),
        tests("MonitorKitTests", ["MonitorKit", "PresentationCore", "PresentationService"]),
        tests("BenchTests", ["Bench"]),
        tests("EndToEndTests", ["ServiceLaunch", "CLinux", "Processes", "Bus", "PresentationPolicy", "Roster", "RosterEtcd", "InputHandling", "Gateway", "Monitor"]),
    ]
)
