import Foundation
import ProcessSupport
import Testing
@testable import GatewayKit
import TestTiers

/// `gateway keys init DIR [--force]`.
@Suite(.tags(.inMemory)) struct KeysCommandTests {
    func parse(_ line: String) throws(UsageError) -> GatewayCommand {
        try CommandLineParser.parse(line.split(separator: " ").map(String.init)).command
    }

    /// Everything under `path` (not following links): each entry's kind, mode and contents or
    /// target, by relative path.
    func tree(_ path: String) -> [String: String] {
        var entries: [String: String] = [:]
        let manager = FileManager.default
        for name in [""] + ((manager.subpaths(atPath: path)) ?? []) {
            let full = name.isEmpty ? path : path + "/" + name
            guard let attributes = try? manager.attributesOfItem(atPath: full) else { continue }
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            switch attributes[.type] as? FileAttributeType {
            case .typeSymbolicLink?: entries[name] = "link to " + ((try? manager.destinationOfSymbolicLink(atPath: full)) ?? "?")
            case .typeDirectory?: entries[name] = "folder \(String(mode, radix: 8))"
            default: entries[name] = "file \(String(mode, radix: 8)) " + ((manager.contents(atPath: full)?.base64EncodedString()) ?? "?")
            }
        }
        return entries
    }

    /// Runs `request`, which must be refused, and checks that nothing under `watched` changed.
    func refused(_ request: KeysRequest, watching watched: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let before = tree(watched)
        #expect(KeysCommand.run(request) == ExitStatus.refused, sourceLocation: sourceLocation)
        let after = tree(watched)
        for name in Set(before.keys).union(after.keys).sorted() where before[name] != after[name] {
            Issue.record("a refused keys init changed \(name.isEmpty ? watched : name)", sourceLocation: sourceLocation)
        }
    }

    @Test func aRefusalNamesTwoFilesInTheWayAndCountsTheRest() {
        let files = ["/run/keys/bus.key", "/run/keys/bus.key_secret", "/run/keys/authorized/roster.key", "/run/keys/roster.key"]
        #expect(KeysCommand.named(Array(files.prefix(1))) == "keys/bus.key")
        #expect(KeysCommand.named(Array(files.prefix(2))) == "keys/bus.key, keys/bus.key_secret")
        #expect(KeysCommand.named(Array(files.prefix(3))) == "keys/bus.key, keys/bus.key_secret and 1 more")
        #expect(KeysCommand.named(files) == "keys/bus.key, keys/bus.key_secret and 2 more")
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
        let roles = ["bus": "bus", "presentation-policy": "presentation-policy", "roster": "roster",
                     "input-handling": "input-handling", "gateway": "gateway", "monitor": "observer"]
        for (name, role) in roles {
            let secret = try Certificate.load(folder + "/\(name).key_secret")
            #expect(secret.keyPair != nil)
            #expect(secret.metadata["name"] == name)
            #expect(secret.role == role)
            #expect(try Certificate.load(folder + "/\(name).key").role == role)
            #expect(try Certificate.load(folder + "/\(name).key") == secret.publicCertificate)
            let mode = try FileManager.default.attributesOfItem(atPath: folder + "/\(name).key_secret")[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            #expect(FileManager.default.fileExists(atPath: folder + "/authorized/\(name).key") == (name != "bus"))
        }
        let (allowed, warnings) = try AllowList.load(folder: folder + "/authorized")
        #expect(allowed.count == 5)
        for path in [folder, folder + "/authorized"] {
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o700, "\(path)")
        }
        #expect(warnings.isEmpty)

        let before = try Certificate.load(folder + "/roster.key_secret")
        // Refused: every file, and the folders' modes (here not 0700 any more), as they were.
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: folder + "/authorized")
        refused(KeysRequest(folder: folder), watching: folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder + "/authorized")
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
        refused(KeysRequest(folder: folder, ifMissing: true), watching: folder)
        // A wholly missing certificate beside the half one is not added either: nothing is written.
        for file in ["monitor.key", "monitor.key_secret", "authorized/monitor.key"] { try FileManager.default.removeItem(atPath: folder + "/" + file) }
        refused(KeysRequest(folder: folder, ifMissing: true), watching: folder)
        #expect(!FileManager.default.fileExists(atPath: folder + "/monitor.key_secret"))
    }

    @Test func symbolicLinksAreRefusedAndNothingIsWrittenThroughThem() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let folder = base + "/keys", target = base + "/target"
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        try "precious\n".write(toFile: target, atomically: false, encoding: .utf8)

        // The folder itself as a link.
        try FileManager.default.createDirectory(atPath: base + "/real", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: base + "/real")
        refused(KeysRequest(folder: folder), watching: base)
        refused(KeysRequest(folder: folder + "//"), watching: base)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/real").isEmpty)
        try FileManager.default.removeItem(atPath: folder)

        // A link planted where a secret goes, with and without --force, also dangling.
        #expect(KeysCommand.run(KeysRequest(folder: folder)) == ExitStatus.ok)
        try FileManager.default.removeItem(atPath: folder + "/bus.key_secret")
        try FileManager.default.createSymbolicLink(atPath: folder + "/bus.key_secret", withDestinationPath: target)
        // Also with the folder's mode not 0700: a refusal does not make it private either.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        refused(KeysRequest(folder: folder, force: true), watching: base)
        refused(KeysRequest(folder: folder, ifMissing: true), watching: base)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
        try FileManager.default.removeItem(atPath: folder + "/bus.key_secret")
        try FileManager.default.createSymbolicLink(atPath: folder + "/bus.key_secret", withDestinationPath: base + "/nowhere")
        refused(KeysRequest(folder: folder, force: true), watching: base)
        #expect(!FileManager.default.fileExists(atPath: base + "/nowhere"))

        // authorized/ as a link.
        try FileManager.default.removeItem(atPath: folder + "/bus.key_secret")
        try FileManager.default.removeItem(atPath: folder + "/authorized")
        try FileManager.default.createSymbolicLink(atPath: folder + "/authorized", withDestinationPath: base + "/real")
        refused(KeysRequest(folder: folder, force: true), watching: base)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/real").isEmpty)
    }

    @Test func forceReplacesFilesWithoutWritingThroughAHardLink() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let folder = base + "/keys"
        #expect(KeysCommand.run(KeysRequest(folder: folder)) == ExitStatus.ok)
        try FileManager.default.removeItem(atPath: folder + "/roster.key_secret")
        try "precious\n".write(toFile: base + "/target", atomically: false, encoding: .utf8)
        try FileManager.default.linkItem(atPath: base + "/target", toPath: folder + "/roster.key_secret")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        #expect(KeysCommand.run(KeysRequest(folder: folder, force: true)) == ExitStatus.ok)
        #expect(try String(contentsOfFile: base + "/target", encoding: .utf8) == "precious\n")
        #expect(try Certificate.load(folder + "/roster.key_secret").role == "roster")
        let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o700)
    }

    @Test func ifMissingAddsACertificateThatIsWhollyMissingAndKeepsTheOthers() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(KeysCommand.run(KeysRequest(folder: folder)) == ExitStatus.ok)
        let roster = try Certificate.load(folder + "/roster.key_secret")
        for file in ["monitor.key", "monitor.key_secret", "authorized/monitor.key"] { try FileManager.default.removeItem(atPath: folder + "/" + file) }
        refused(KeysRequest(folder: folder), watching: folder)
        #expect(KeysCommand.run(KeysRequest(folder: folder, ifMissing: true)) == ExitStatus.ok)
        #expect(try Certificate.load(folder + "/monitor.key_secret").role == "observer")
        #expect(try Certificate.load(folder + "/roster.key_secret") == roster)
    }
}
