import Foundation
import Testing
import TestTiers

/// Idle memory: the bus and the services load no Foundation module, no ICU and no
/// libcurl (with its TLS and Kerberos libraries) — ~12 MB resident in each process when they
/// did. What they map is read from /proc/PID/maps of the running processes; the figures
/// themselves are the benchmark's (`max_rss_mb`).
@Suite(.serialized, .tags(.processes)) struct FootprintTests {
    @Test func theBusAndTheServicesMapNeitherFoundationNorLibcurl() throws {
        let stack = try Stack()
        #expect(Set(stack.processes.keys) == Set(["bus"] + Stack.services))
        for (name, child) in stack.processes {
            // Read to the end: /proc files report a size of 0.
            let file = try #require(FileHandle(forReadingAtPath: "/proc/\(child.pid)/maps"))
            let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
            let libraries = Set(maps.split(separator: "\n").compactMap { line in
                line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first.map(String.init)
            })
            #expect(libraries.contains { $0.contains("libswiftCore") }, "\(name): no Swift runtime in its maps?")
            let heavy = libraries.filter { $0.contains("Foundation") || $0.contains("libcurl") }
            #expect(heavy.isEmpty, "\(name) maps \(heavy.sorted())")
        }
    }
}
