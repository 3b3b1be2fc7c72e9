import Domain
import Foundation
import RosterCore
import RosterStore
import Testing
import TestTiers

/// Starting on a data folder: a first run starts fresh; evidence of loss is refused with the
/// files named; a reset or a restore is asked for explicitly.
@Suite(.tags(.inMemory)) final class RosterStartupTests {
    let folder: DataFolder

    init() throws { folder = try DataFolder("roster-startup") }

    var path: String { folder.path("roster.db") }
    var marker: AcknowledgedMarker { AcknowledgedMarker(databasePath: path) }

    /// Opens for a start and makes `changes` weapon changes, recording each in the marker as the handler does.
    @discardableResult
    func start(_ mode: StartMode = .normal, changes: Int = 0) throws -> StoredPosition {
        var (database, position, _) = try RosterStartup.open(path: path, mode: mode, now: 1)
        for index in 0..<changes {
            position.revision += 1
            position.commits = try database.store(
                .monster(Catalogue.monsters[0].with(weapon: index % 2 == 0 ? .fire : .sword), revision: position.revision),
                messageId: "m-\(UUID().uuidString)", now: 0)
            try marker.write(position)
        }
        return position
    }

    /// Why a start in `mode` is refused, nil if it is not. A refused start leaves every file of
    /// the data folder (the database, its WAL, the marker, a backup) as it was.
    func refusal(_ mode: StartMode = .normal, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        let before = files()
        do {
            _ = try RosterStartup.open(path: path, mode: mode, now: 2)
            return nil
        } catch {
            let after = files()
            #expect(after.keys.sorted() == before.keys.sorted(), "a refused start changed the folder", sourceLocation: sourceLocation)
            for (name, bytes) in before where after[name] != bytes {
                Issue.record("a refused start changed \(name)", sourceLocation: sourceLocation)
            }
            return error.description
        }
    }

    /// Every file of the data folder, with its bytes — but the WAL's index (`-shm`), which SQLite
    /// makes again from the WAL whenever a connection opens it.
    func files() -> [String: Data] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path)) ?? []).filter { !$0.hasSuffix("-shm") }
        return Dictionary(uniqueKeysWithValues: names.map { ($0, (try? Data(contentsOf: URL(fileURLWithPath: folder.path($0)))) ?? Data()) })
    }

    @Test func aFolderWithNeitherFileIsAFirstRun() throws {
        let position = try start()
        #expect(position.revision == 0)
        #expect(try marker.read() == position)
        #expect(try start() == position)
    }

    @Test func aMissingDatabaseIsRefusedNamingTheFiles() throws {
        try start(changes: 3)
        try FileManager.default.removeItem(atPath: path)
        let reason = try #require(refusal())
        #expect(reason.contains("\(path) is missing"))
        #expect(reason.contains(marker.path))
        #expect(reason.contains("roster --reset"))
    }

    @Test func anEmptyDatabaseIsRefused() throws {
        try start(changes: 1)
        try Data().write(to: URL(fileURLWithPath: path))
        try? FileManager.default.removeItem(atPath: path + "-wal")
        #expect(refusal()?.contains("\(path) is empty") == true)
    }

    @Test func aDatabaseOlderThanAcknowledgedIsRefused() throws {
        var position = try start(changes: 2)
        position.revision += 1
        try marker.write(position)
        #expect(refusal()?.contains("older than") == true)
    }

    /// A forget commits without a new revision: a database at the acknowledged revision but with
    /// fewer commits has lost an acknowledged change all the same.
    @Test func aDatabaseWithFewerCommitsThanAcknowledgedIsRefused() throws {
        var position = try start(changes: 2)
        position.commits += 1
        try marker.write(position)
        #expect(refusal()?.contains("older than") == true)
    }

    @Test func anotherDatabaseIsRefused() throws {
        let position = try start(changes: 1)
        try marker.write(StoredPosition(databaseId: "another", revision: position.revision, commits: position.commits))
        #expect(refusal()?.contains("another database") == true)
    }

    @Test func aDamagedPageIsRefusedByTheIntegrityCheck() throws {
        let position = try start(changes: 1)
        // Checkpoint the WAL into the file, then overwrite a table page with garbage.
        do { _ = try RosterStartup.open(path: path, mode: .normal, now: 1) }
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: 2 * 4096)
        handle.write(Data(repeating: 0xA5, count: 3 * 4096))
        try handle.close()
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        #expect(try marker.read() == position)
        let reason = try #require(refusal())
        #expect(reason.contains("\(path) cannot be used"))
    }

    /// Damage that reading the roster at start does not touch (the index of applied ids) is
    /// found all the same: the integrity check runs on every start.
    @Test func damageTheStartDoesNotReadIsFoundByTheIntegrityCheck() throws {
        try start(changes: 1)
        do { _ = try RosterStartup.open(path: path, mode: .normal, now: 1) }
        var (page, pageSize): (Int64, Int64) = (0, 0)
        do {
            let connection = try SQLiteConnection(path: path)
            if case .integer(let root)? = try connection.query("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_applied_1'").first?.first { page = root }
            if case .integer(let size)? = try connection.query("PRAGMA page_size").first?.first { pageSize = size }
        }
        #expect(page > 1 && pageSize > 0)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64((page - 1) * pageSize))
        handle.write(Data(repeating: 0xA5, count: Int(pageSize)))
        try handle.close()
        try? FileManager.default.removeItem(atPath: path + "-wal")
        try? FileManager.default.removeItem(atPath: path + "-shm")
        #expect(refusal()?.contains("\(path) cannot be used") == true)
    }

    /// Without the marker, a deleted database whose WAL is left is still evidence of loss.
    @Test func aDeletedDatabaseWithItsWALLeftIsRefusedEvenWithoutTheMarker() throws {
        var wal = Data()
        do {
            var (database, position, _) = try RosterStartup.open(path: path, mode: .normal, now: 1)
            position.revision += 1
            position.commits = try database.store(
                .monster(Catalogue.monsters[0].with(weapon: .fire), revision: position.revision), messageId: "m-wal", now: 0)
            wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        }
        #expect(!wal.isEmpty)
        try FileManager.default.removeItem(atPath: path)
        try? FileManager.default.removeItem(atPath: path + "-shm")
        try FileManager.default.removeItem(atPath: marker.path)
        try wal.write(to: URL(fileURLWithPath: path + "-wal"))
        let reason = try #require(refusal())
        #expect(reason.contains("\(path)-wal"))
    }

    /// The files as `kill -9` leaves them: changes committed in the WAL, not yet in the database.
    func crashWithChangesInTheWAL() throws -> StoredPosition {
        var saved: [String: Data] = [:]
        var position: StoredPosition
        do {
            var database: RosterDatabase
            (database, position, _) = try RosterStartup.open(path: path, mode: .normal, now: 1)
            for index in 0..<2 {
                position.revision += 1
                position.commits = try database.store(
                    .monster(Catalogue.monsters[index].with(weapon: .smoke), revision: position.revision), messageId: "crash-\(index)", now: 0)
                try marker.write(position)
            }
            for name in ["roster.db", "roster.db-wal", "roster.db.acknowledged"] {
                saved[name] = try Data(contentsOf: URL(fileURLWithPath: folder.path(name)))
            }
        }
        // Closing checkpointed the WAL into the database: put the files back as they were.
        for (name, bytes) in saved { try bytes.write(to: URL(fileURLWithPath: folder.path(name))) }
        try? FileManager.default.removeItem(atPath: path + "-shm")
        #expect(saved["roster.db-wal"]?.isEmpty == false)
        return position
    }

    /// A refused start is evidence to keep: with changes still in the WAL after a crash, the
    /// refusal (here: a marker ahead of them, as after a truncated WAL) leaves the WAL where it
    /// is, not checkpointed into the database nor deleted (`refusal` compares every file).
    @Test func aRefusalAfterACrashLeavesTheWALAsItWas() throws {
        var position = try crashWithChangesInTheWAL()
        position.revision += 1
        try marker.write(position)
        #expect(refusal()?.contains("older than") == true)
        position.databaseId = "another"
        try marker.write(position)
        #expect(refusal()?.contains("another database") == true)
    }

    /// docs/durability.md: the marker is one fixed-size record of 256 bytes. A position whose
    /// text fills it (255 bytes and the newline) is recorded; one byte more is refused, and the
    /// marker is left as it was — or not made, when there was none.
    @Test func aPositionFillingTheRecordIsWritten_aByteMoreIsRefusedAndChangesNothing() throws {
        // "database-id ID\nrevision 1\ncommits 2\n" is 34 bytes besides the id.
        let fits = StoredPosition(databaseId: String(repeating: "i", count: 255 - 34), revision: 1, commits: 2)
        let over = StoredPosition(databaseId: String(repeating: "i", count: 256 - 34), revision: 1, commits: 2)
        #expect(throws: StoreFileError.self) { try self.marker.write(over) }
        #expect(files().isEmpty)
        try marker.write(fits)
        #expect(try marker.read() == fits)
        let record = try Data(contentsOf: URL(fileURLWithPath: marker.path))
        #expect(record.count == AcknowledgedMarker.recordBytes && AcknowledgedMarker.recordBytes == 256)
        #expect(throws: StoreFileError.self) { try self.marker.write(over) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: marker.path)) == record)
        #expect(files().keys.sorted() == ["roster.db.acknowledged"])
    }

    /// A restore needs a roster backup: a database without the roster's identity is refused.
    @Test func aRestoreFromADatabaseWithoutARosterIdentityIsRefused() throws {
        try start(changes: 1)
        let backup = folder.path("no-identity.db")
        try RosterDatabase(path: path).backup(to: backup)
        do { try SQLiteConnection(path: backup).execute("DROP TABLE identity") }
        #expect(refusal(.restore(backup))?.contains("is not a roster backup") == true)
    }

    @Test func aResetStartsANewDatabaseAndKeepsTheOldOneAside() throws {
        let old = try start(changes: 2)
        try FileManager.default.removeItem(atPath: path)
        let (_, fresh, notes) = try RosterStartup.open(path: path, mode: .reset, now: 1)
        // What was kept aside is named: here the marker (the database was deleted first).
        #expect(notes.first?.hasSuffix("; kept aside: \(path).reset-1.acknowledged") == true, "\(notes)")
        #expect(fresh.revision == 0)
        #expect(fresh.databaseId != old.databaseId)
        #expect(try marker.read() == fresh)
        #expect(FileManager.default.fileExists(atPath: marker.path.replacingOccurrences(of: "roster.db", with: "roster.db.reset-1")))
    }

    @Test func aRestoreStartsOnTheCopyWithItsIdentityKept() throws {
        try start(changes: 2)
        let backup = folder.path("backup.db")
        let database = try RosterDatabase(path: path)
        try database.backup(to: backup)
        let saved = try #require(try database.position())
        try start(changes: 3)
        let (_, restored, notes) = try RosterStartup.open(path: path, mode: .restore(backup), now: 1)
        #expect(restored == saved)
        #expect(try marker.read() == saved)
        // One note, the restore's: the marker came with the copy, it was not found missing.
        #expect(notes.count == 1 && notes.first?.hasPrefix("restored \(backup) (") == true, "\(notes)")
        #expect(try start() == saved)
    }

    @Test func anExistingDatabaseWithoutAMarkerIsAcceptedAndMarked() throws {
        let position = try start(changes: 2)
        try FileManager.default.removeItem(atPath: marker.path)
        #expect(try start() == position)
        #expect(try marker.read() == position)
    }
}
