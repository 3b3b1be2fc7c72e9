import BusKit
import Foundation
import Testing
@testable import GatewayKit

/// `gateway keys init DIR [--force]`.
@Suite struct KeysCommandTests {
    func parse(_ line: String) throws(UsageError) -> GatewayCommand {
        try CommandLineParser.parse(line.split(separator: " ").map(String.init)).command
    }

    @Test func parsesInitWithAFolderAndForce() throws {
        #expect(try parse("keys init run/keys") == .keys(KeysRequest(folder: "run/keys")))
        #expect(try parse("keys init run/keys --force") == .keys(KeysRequest(folder: "run/keys", force: true)))
        #expect(try parse("--device x keys --force init k") == .keys(KeysRequest(folder: "k", force: true)))
        #expect(throws: UsageError.self) { try parse("tap add --force") }
        #expect(try parse("keys --help") == .help("keys"))
        #expect(throws: UsageError("keys needs a subcommand: keys init DIR", command: "keys")) { try parse("keys") }
        #expect(throws: UsageError("keys init needs a folder", command: "keys")) { try parse("keys init") }
        #expect(throws: UsageError("unknown keys subcommand 'show' (there is: init)", command: "keys")) { try parse("keys show") }
    }

    @Test func createsEveryCertificateAuthorisesTheComponentsAndRefusesToOverwrite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString.prefix(8))").path + "/nested/keys"
        defer { try? FileManager.default.removeItem(atPath: String(folder.dropLast("/nested/keys".count))) }
        #expect(KeysCommand.run(KeysRequest(folder: folder)) == ExitStatus.ok)
        for name in ["bus", "presentation-policy", "roster", "input-handling", "gateway", "monitor"] {
            let secret = try Certificate.load(folder + "/\(name).key_secret")
            #expect(secret.keyPair != nil)
            #expect(secret.metadata["name"] == name)
            #expect(try Certificate.load(folder + "/\(name).key") == secret.publicCertificate)
            let mode = try FileManager.default.attributesOfItem(atPath: folder + "/\(name).key_secret")[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            #expect(FileManager.default.fileExists(atPath: folder + "/authorized/\(name).key") == (name != "bus"))
        }
        let (allowed, warnings) = try AllowList.load(folder: folder + "/authorized")
        #expect(allowed.count == 5)
        #expect(warnings.isEmpty)

        let before = try Certificate.load(folder + "/roster.key_secret")
        #expect(KeysCommand.run(KeysRequest(folder: folder)) == ExitStatus.refused)
        #expect(try Certificate.load(folder + "/roster.key_secret") == before)
        #expect(KeysCommand.run(KeysRequest(folder: folder, ifMissing: true)) == ExitStatus.ok)
        #expect(try Certificate.load(folder + "/roster.key_secret") == before)
        #expect(KeysCommand.run(KeysRequest(folder: folder, force: true)) == ExitStatus.ok)
        #expect(try Certificate.load(folder + "/roster.key_secret") != before)
    }

    @Test func ifMissingCreatesKeysTheFirstTimeAndRefusesAHalfFullFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try parse("keys init k --if-missing") == .keys(KeysRequest(folder: "k", ifMissing: true)))
        #expect(throws: UsageError.self) { try parse("keys init k --if-missing --force") }
        #expect(KeysCommand.run(KeysRequest(folder: folder, ifMissing: true)) == ExitStatus.ok)
        #expect(FileManager.default.fileExists(atPath: folder + "/gateway.key_secret"))
        try FileManager.default.removeItem(atPath: folder + "/roster.key")
        #expect(KeysCommand.run(KeysRequest(folder: folder, ifMissing: true)) == ExitStatus.refused)
    }
}
