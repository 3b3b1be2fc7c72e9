import Foundation
import ProcessSupport
import Testing
import TestTiers

/// Every executable's `--help` lists the environment variables it reads, from their declarations.
@Suite(.tags(.processes)) struct HelpTests {
    static let programs: [(name: String, environment: [EnvironmentVariable])] = [
        ("bus", EnvironmentVariable.bus), ("presentation-policy", EnvironmentVariable.shardedService),
        ("input-handling", EnvironmentVariable.shardedService), ("roster", EnvironmentVariable.roster),
        ("monitor", EnvironmentVariable.monitor), ("gateway", EnvironmentVariable.gateway),
    ]

    @Test(arguments: HelpTests.programs.map(\.name))
    func theHelpListsEveryVariableTheProgramReads(_ name: String) throws {
        let result = try runToCompletion(Products.url(name), ["--help"], environment: [:])
        #expect(result.status == 0, "\(result.stderr)")
        let environment = try #require(Self.programs.first { $0.name == name }).environment
        for variable in environment {
            #expect(result.stdout.contains("\n  \(variable.name) "), "\(name) --help lacks \(variable.name)")
        }
        for name in ["BUS_HWM", "ACTION_TTL_MS", "BUS_MAX_MESSAGE_BYTES"] { #expect(result.stdout.contains(name)) }
    }

    @Test func aServiceRefusesAnUnknownArgument() throws {
        let result = try runToCompletion(Products.url("roster"), ["--bogus"], environment: [:])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown option '--bogus'"))
    }

    @Test func aShardedServiceRefusesABadEtcdMemberByName() throws {
        let result = try runToCompletion(
            Products.url("presentation-policy"), [], environment: ["ETCD_ENDPOINTS": "http://127.0.0.1:2379, http//etcd-1:2379"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("ETCD_ENDPOINTS entry 2 of 2: etcd endpoint 'http//etcd-1:2379' is not an http URL"), "\(result.stderr)")
    }
}
