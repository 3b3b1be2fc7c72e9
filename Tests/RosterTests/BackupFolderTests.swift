import Foundation
import RosterStore
import Testing
import TestTiers

/// `roster backup FILE` writes only in its backup folder: a name or an absolute path directly in
/// it; anything else is refused, with nothing written anywhere.
@Suite(.tags(.inMemory)) struct BackupFolderTests {
    let root: DataFolder
    let backups: BackupFolder

    init() throws {
        root = try DataFolder("backup-folder")
        backups = BackupFolder(path: root.path("backups"))
        try backups.make()
    }

    /// Every file and folder under the test's folder.
    func written() throws -> Set<String> {
        let under = FileManager.default.enumerator(atPath: root.url.path)?.allObjects as? [String] ?? []
        return Set(under)
    }

    @Test func theDefaultIsBackupsBesideTheDatabase() {
        #expect(BackupFolder(besideDatabase: "/var/lib/monster-bus/roster.db").path == "/var/lib/monster-bus/backups")
        #expect(BackupFolder(besideDatabase: "roster.db").path == "./backups")
        #expect(BackupFolder(besideDatabase: "/roster.db").path == "/backups")
    }

    @Test func aNameOrAnAbsolutePathInTheFolderIsAccepted() throws {
        #expect(try backups.file(for: "nightly.db").get().hasSuffix("/backups/nightly.db"))
        #expect(try backups.file(for: root.path("backups/other.db")).get().hasSuffix("/backups/other.db"))
        #expect(try written() == ["backups"])
    }

    @Test func pathsOutsideTheFolderAreRefusedAndNothingIsWritten() throws {
        try "precious\n".write(toFile: root.path("backups/precious.db"), atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root.path("backups/inner"), withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: root.path("backups/link"), withDestinationPath: root.path("elsewhere"))
        try FileManager.default.createSymbolicLink(atPath: root.path("backups/up"), withDestinationPath: root.url.path)
        let before = try written()
        let inTemporary = FileManager.default.temporaryDirectory.appendingPathComponent("roster-backup-\(UUID().uuidString).db").path
        let refused = [
            "/etc/passwd", inTemporary, root.path("outside.db"),
            root.path("backups/../outside.db"), root.path("backups/inner/deeper.db"), root.path("backups/up/outside.db"),
            "relative/path.db", "../outside.db", "", ".", "..", root.path("backups/"), root.path("backups/precious.db"),
            root.path("backups/link"), "link", "precious.db",
        ]
        for requested in refused {
            switch backups.file(for: requested) {
            case .success(let file): Issue.record("'\(requested)' was accepted as \(file)")
            case .failure(let refusal): #expect(!refusal.description.isEmpty)
            }
        }
        #expect(try written() == before)
        #expect(!FileManager.default.fileExists(atPath: inTemporary))
        #expect(try String(contentsOfFile: root.path("backups/precious.db"), encoding: .utf8) == "precious\n")
        guard case .failure(let refusal) = backups.file(for: "/etc/cron.d/evil") else {
            Issue.record("/etc/cron.d/evil was accepted")
            return
        }
        #expect(refusal.description.contains("ROSTER_BACKUP_DIR"))
        #expect(refusal.description.contains("outside"))
    }

    @Test func aMissingFolderRefusesEveryBackupAndIsNotMadeByOne() {
        let missing = BackupFolder(path: root.path("missing"))
        for requested in ["early.db", root.path("missing/early.db")] {
            guard case .failure = missing.file(for: requested) else {
                Issue.record("'\(requested)' was accepted with no folder")
                continue
            }
        }
        #expect(!FileManager.default.fileExists(atPath: root.path("missing")))
        #expect(throws: BackupRefusal.self) { try BackupFolder(path: root.path("no/such/parent")).make() }
    }
}
