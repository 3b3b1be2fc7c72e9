import Foundation
import MonsterKit
import RosterCore
import RosterStore
import Testing

/// The SQLite store: what is stored is what is loaded after reopening.
@Suite final class RosterDatabaseTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    var path: String { folder.appendingPathComponent("roster.db").path }

    @Test func aNewDatabaseHoldsTheCatalogue() throws {
        let core = try RosterDatabase(path: path).load()
        #expect(core.monsters == Catalogue.monsters)
        #expect(core.revision == 0)
        #expect(core.selections.isEmpty)
    }

    @Test func storedChangesSurviveReopening() throws {
        do {
            let database = try RosterDatabase(path: path)
            try database.store(.selection(device: "ipad", monster: "Dog-Bot"), messageId: "m-1")
            try database.store(.monster(Catalogue.monster(named: "Dog-Bot")!.with(weapon: .fire), revision: 1), messageId: "m-2")
            try database.store(.monster(Catalogue.monster(named: "Ice-Bot")!.with(color: .red), revision: 2), messageId: "m-3")
        }
        let core = try RosterDatabase(path: path).load()
        #expect(core.revision == 2)
        #expect(core.selections == ["ipad": "Dog-Bot"])
        #expect(core.selected(on: "ipad").weapon == .fire)
        #expect(core.monsters.first { $0.name == "Ice-Bot" }?.color == .red)
        #expect(core.monsters.map(\.name) == Catalogue.names)
    }

    @Test func appliedMessageIdsAreRemembered() throws {
        let database = try RosterDatabase(path: path)
        #expect(try !database.hasApplied("m-1"))
        try database.store(.selection(device: "ipad", monster: "Dog-Bot"), messageId: "m-1")
        #expect(try database.hasApplied("m-1"))
        #expect(try RosterDatabase(path: path).hasApplied("m-1"))
    }

    @Test func anUnopenablePathIsAClearError() {
        #expect(throws: SQLiteError.self) { try RosterDatabase(path: "/nonexistent-dir/x/roster.db") }
    }
}
