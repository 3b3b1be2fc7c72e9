import Domain
import Foundation
import RosterCore
@testable import RosterStore
import Testing
import TestTiers

/// The SQLite store: what is stored is what is loaded after reopening.
@Suite(.tags(.inMemory)) final class RosterDatabaseTests {
    let folder: DataFolder

    init() throws { folder = try DataFolder("roster-tests") }

    var path: String { folder.path("roster.db") }

    /// The marker is written after every stored change: each write lets go of what it opened,
    /// the folder it syncs included (a roster would otherwise run out of descriptors).
    @Test func writingTheMarkerLeavesNothingOpenInItsFolder() throws {
        let marker = AcknowledgedMarker(databasePath: path)
        for revision in UInt64(1)...20 { try marker.write(StoredPosition(databaseId: "db", revision: revision, commits: revision)) }
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
            .compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
        #expect(!open.contains { $0.hasPrefix(folder.url.path) }, "\(open)")
    }

    @Test func anIdentityIsAVersion4UUIDWithEveryByteInTwoDigits() {
        let bytes: [UInt8] = [0x00, 0x0f, 0x10, 0xff, 0x01, 0x02, 0x0f, 0x03, 0xff, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10]
        #expect(RosterDatabase.identity(bytes) == "000f10ff-0102-4f03-bf0a-0b0c0d0e0f10")
    }

    /// The database at `path`, its tables created.
    func prepared() throws -> RosterDatabase {
        let database = try RosterDatabase(path: path)
        _ = try database.prepare()
        return database
    }

    @Test func aNewDatabaseHoldsTheCatalogueAndAnIdentity() throws {
        let (core, _) = try prepared().load()
        #expect(core.monsters == Catalogue.monsters)
        #expect(core.revision == 0)
        #expect(core.selections.isEmpty)
        #expect(core.databaseId.count == 36)
        #expect(try RosterDatabase(path: path).load().core.databaseId == core.databaseId)
    }

    @Test func storedChangesSurviveReopening() throws {
        do {
            let database = try prepared()
            try database.store(.selection(device: "ipad", monster: "Dog-Bot"), messageId: "m-1", now: 1000)
            try database.store(.monster(try #require(Catalogue.monster(named: "Dog-Bot")).with(weapon: .fire), revision: 1), messageId: "m-2", now: 1001)
            #expect(try database.store(.monster(try #require(Catalogue.monster(named: "Ice-Bot")).with(color: .red), revision: 2), messageId: "m-3", now: 1002) == 3)
        }
        let (core, lastUsed) = try prepared().load()
        #expect(core.revision == 2)
        #expect(core.selections == ["ipad": "Dog-Bot"])
        #expect(lastUsed == ["ipad": 1000])
        #expect(core.selected(on: "ipad").weapon == .fire)
        #expect(core.monsters.first { $0.name == "Ice-Bot" }?.color == .red)
        #expect(core.monsters.map(\.name) == Catalogue.names)
    }

    @Test func appliedMessageIdsAreRemembered() throws {
        let database = try prepared()
        #expect(try !database.hasApplied("m-1"))
        try database.store(.selection(device: "ipad", monster: "Dog-Bot"), messageId: "m-1", now: 0)
        #expect(try database.hasApplied("m-1"))
        #expect(try RosterDatabase(path: path).hasApplied("m-1"))
    }

    /// docs/security.md: roster keeps the last 100,000 applied ids, so a repeat among them is a
    /// duplicate even after a restart: the 100,000th latest is known, the one before it is not.
    @Test func theLast100000AppliedIdsAreKept() throws {
        let database = try prepared()
        // The first 99,999 written at once (one transaction), then two changes as roster stores them.
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.transaction { () throws(SQLiteError) in
                for index in 1..<RosterDatabase.appliedIdsKept { try connection.query("INSERT INTO applied (id) VALUES (?)", [.text("m-\(index)")]) }
            }
        }
        try database.store(.selection(device: "ipad", monster: "Dog-Bot"), messageId: "m-100000", now: 0)
        #expect(try database.hasApplied("m-1"))
        #expect(try database.store(.selection(device: "ipad", monster: "Ice-Bot"), messageId: "m-100001", now: 0) == 100_001)
        #expect(try !database.hasApplied("m-1"))
        #expect(try database.hasApplied("m-2") && database.hasApplied("m-100001"))
        #expect(RosterDatabase.appliedIdsKept == 100_000)
    }

    @Test func textWithANulInsideIsStoredWholeSoTwoIdsStayTwo() throws {
        let database = try prepared()
        try database.store(.selection(device: "nul\u{0}A", monster: "Dog-Bot"), messageId: "m\u{0}1", now: 0)
        try database.store(.selection(device: "nul\u{0}B", monster: "Ice-Bot"), messageId: "m\u{0}2", now: 0)
        #expect(try database.hasApplied("m\u{0}1"))
        #expect(try !database.hasApplied("m"))
        let core = try RosterDatabase(path: path).load().core
        #expect(core.selections == ["nul\u{0}A": "Dog-Bot", "nul\u{0}B": "Ice-Bot"])
    }

    @Test func forgettingADeviceDeletesItsRow() throws {
        let database = try prepared()
        try database.store(.selection(device: "a", monster: "Dog-Bot"), messageId: "m-1", now: 0)
        try database.store(.selection(device: "b", monster: "Dog-Bot"), messageId: "m-2", now: 0)
        try database.store(.forget(device: "a"), messageId: "m-3", now: 0)
        try database.forget(["b"])
        #expect(try RosterDatabase(path: path).load().core.selections.isEmpty)
    }

    @Test func aBackupIsAConsistentCopyWithTheSameIdentity() throws {
        let database = try prepared()
        try database.store(.monster(try #require(Catalogue.monster(named: "Dog-Bot")).with(weapon: .fire), revision: 1), messageId: "m-1", now: 0)
        let copy = folder.path("copy.db")
        try database.backup(to: copy)
        let original = try database.position()
        #expect(try RosterDatabase(path: copy).position() == original)
        #expect(try RosterDatabase(path: copy).load().core.monsters == database.load().core.monsters)
    }

    @Test func anUnopenablePathIsAClearError() {
        #expect(throws: SQLiteError.self) { try RosterDatabase(path: "/nonexistent-dir/x/roster.db") }
    }
}
