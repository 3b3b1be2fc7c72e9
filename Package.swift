// swift-tools-version:6.0
import PackageDescription

/// One set of settings for every Swift target: Swift 6 mode, warnings are errors.
let strict: [SwiftSetting] = [
    .unsafeFlags(["-warnings-as-errors"]),
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
]

/// A test target: its folder is `Tests/NAME`.
func tests(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies, path: "Tests/" + name, swiftSettings: strict)
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

        // Shared Swift modules.
        .target(name: "ZeroMQ", dependencies: ["CZeroMQ"], path: "Shared/ZeroMQ", swiftSettings: strict),
        .target(name: "MonsterKit", path: "Shared/MonsterKit", swiftSettings: strict),
        .target(name: "BusKit", dependencies: ["ZeroMQ", "MonsterKit", "CLinux"], path: "Shared/BusKit", swiftSettings: strict),
        // Starting and stopping the project's processes (a child, a stack of bus and services, etcd),
        // shared by the end-to-end tests and the bench.
        .target(name: "Processes", dependencies: ["BusKit", "CLinux"], path: "Shared/Processes", swiftSettings: strict),
        // The contract: the AsyncAPI document recorded from MonsterKit's Codable types, and a validator.
        .target(name: "Contract", dependencies: ["MonsterKit"], path: "Shared/Contract", swiftSettings: strict),

        // The bus.
        .executableTarget(name: "Bus", dependencies: ["BusKit"], path: "Services/Bus", swiftSettings: strict),

        // presentation-policy: a pure core and its bus adapter.
        .target(name: "PresentationCore", dependencies: ["MonsterKit"], path: "Services/PresentationPolicy/Core", swiftSettings: strict),
        .target(name: "PresentationService", dependencies: ["PresentationCore", "BusKit"], path: "Services/PresentationPolicy/Service", swiftSettings: strict),
        .executableTarget(name: "PresentationPolicy", dependencies: ["PresentationService", "BusKit"], path: "Services/PresentationPolicy/Main", swiftSettings: strict),

        // roster: a pure core, its SQLite store, and its bus adapter.
        .target(name: "RosterCore", dependencies: ["MonsterKit"], path: "Services/Roster/Core", swiftSettings: strict),
        .target(name: "RosterStore", dependencies: ["RosterCore", "CSQLite"], path: "Services/Roster/Store", swiftSettings: strict),
        .target(name: "RosterService", dependencies: ["RosterCore", "RosterStore", "BusKit"], path: "Services/Roster/Service", swiftSettings: strict),
        .executableTarget(name: "Roster", dependencies: ["RosterService", "RosterStore", "BusKit"], path: "Services/Roster/Main", swiftSettings: strict),

        // input-handling: a pure core and its bus adapter.
        .target(name: "InputCore", dependencies: ["MonsterKit"], path: "Services/InputHandling/Core", swiftSettings: strict),
        .target(name: "InputService", dependencies: ["InputCore", "BusKit"], path: "Services/InputHandling/Service", swiftSettings: strict),
        .executableTarget(name: "InputHandling", dependencies: ["InputService", "BusKit"], path: "Services/InputHandling/Main", swiftSettings: strict),

        // gateway: the CLI's logic as a library, and the executable.
        .target(name: "GatewayKit", dependencies: ["BusKit", "MonsterKit", "Contract"], path: "Services/Gateway/Kit", swiftSettings: strict),
        // The real handlers in the gateway's own process over an in-memory bus (`gateway --embedded`).
        .target(
            name: "Embedded", dependencies: ["BusKit", "PresentationService", "InputService", "RosterService", "RosterStore"],
            path: "Services/Gateway/Embedded", swiftSettings: strict),
        .executableTarget(name: "Gateway", dependencies: ["GatewayKit", "Embedded", "BusKit"], path: "Services/Gateway/Main", swiftSettings: strict),

        // monitor: the web page of live screens, timeline and health (MonitorKit: its pure parts),
        // served by libmicrohttpd.
        .target(name: "MonitorKit", dependencies: ["GatewayKit", "BusKit", "MonsterKit"], path: "Services/Monitor/Kit", swiftSettings: strict),
        .executableTarget(name: "Monitor", dependencies: ["MonitorKit", "CMicroHTTPD"], path: "Services/Monitor/Main", swiftSettings: strict),

        // bench: the benchmark of issue 8 (raw libzmq through the bus vs the product). It depends on
        // the service executables only so that `swift run bench` builds them: it starts them as processes.
        .executableTarget(
            name: "Bench",
            dependencies: ["ZeroMQ", "BusKit", "MonsterKit", "Processes", "Bus", "PresentationPolicy", "Roster", "InputHandling"],
            path: "Benchmarks/Bench",
            swiftSettings: strict
        ),

        // Tests.
        tests("ZeroMQTests", ["ZeroMQ"]),
        tests("MonsterKitTests", ["MonsterKit"]),
        tests("ContractTests", ["Contract", "MonsterKit"]),
        tests("BusKitTests", ["BusKit", "ZeroMQ"]),
        tests("PresentationCoreTests", ["PresentationCore"]),
        tests("RosterTests", ["RosterCore", "RosterStore"]),
        tests("InputCoreTests", ["InputCore"]),
        tests("GatewayKitTests", ["GatewayKit", "MonsterKit", "Contract", "InputCore", "PresentationCore"]),
        tests("MonitorKitTests", ["MonitorKit", "MonsterKit", "PresentationCore"]),
        tests("BenchTests", ["Bench", "MonsterKit"]),
        tests("EndToEndTests", ["BusKit", "CLinux", "Processes", "Bus", "PresentationPolicy", "Roster", "InputHandling", "Gateway", "Monitor"]),
    ]
)
