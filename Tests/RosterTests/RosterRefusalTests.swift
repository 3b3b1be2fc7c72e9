import Domain
import Foundation
import ProcessSupport
import RosterCore
@testable import RosterService
import RosterStore
import Testing
import Wire
import TestTiers

/// docs/durability.md and docs/security.md: what roster refuses — an unknown monster, a change
/// without a device, a message already applied, a message it does not handle, a backup outside
/// its folder or over a file — and what changes nothing (the weapon the monster already has)
/// leave its state, its database, its marker and its backup folder byte for byte as they were,
/// and publish nothing but the error; the next change takes the next revision.
@Suite(.tags(.inMemory)) final class RosterRefusalTests {
    let folder: DataFolder

    init() throws { folder = try DataFolder("roster-refusals") }

    /// roster on a database in the test's folder, `Dog-Bot` selected on `ipad` and given the Fire.
    func started() throws -> RosterHandler {
        let backups = BackupFolder(path: folder.path("backups"))
        var handler = try RosterHandler.open(
            path: folder.path("roster.db"), mode: .normal, expiry: 3600, backups: backups, log: Log(service: "roster", level: .error))
        try Data("an earlier backup\n".utf8).write(to: URL(fileURLWithPath: folder.path("backups/taken.db")))
        #expect(handler.handle(envelope(.rosterSelect(RosterSelect(monster: "Dog-Bot")), id: "select-1")).effects.count == 1)
        #expect(handler.handle(envelope(.weaponSelected(WeaponSelected(weapon: .fire)), id: "applied-1")).effects.count == 1)
        return handler
    }

    var counter = 0

    func envelope(_ body: Body, device: String? = "ipad", id: String? = nil) -> Envelope {
        counter += 1
        let id = id ?? "message-\(counter)"
        return Envelope(id: id, correlationId: id, service: "test", device: device, seq: UInt64(counter), time: Timestamp.now(), body: body)
    }

    /// Every file under the test's folder with its bytes — but SQLite's shared-memory index
    /// (`-shm`), which any reader of a WAL database rewrites.
    func files() throws -> [String: Data] {
        let names = FileManager.default.enumerator(atPath: folder.url.path)?.allObjects as? [String] ?? []
        var files: [String: Data] = [:]
        for name in names where !name.hasSuffix("-shm") {
            var isFolder: ObjCBool = false
            let path = folder.path(name)
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
                files[name + "/"] = Data()
                continue
            }
            files[name] = try Data(contentsOf: URL(fileURLWithPath: path))
        }
        return files
    }

    /// A refused message, the code of its error (nil: none, nothing to say), whether it is a repeat.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let body: Body
        var device: String? = "ipad"
        var id: String?
        let code: String?
        var duplicate = false
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "an unknown monster", body: .rosterSelect(RosterSelect(monster: "Robo-Cop")), code: "unknown-monster"),
        Case(name: "a weapon change without a device", body: .weaponSelected(WeaponSelected(weapon: .smoke)), device: nil, code: "missing-device"),
        Case(name: "a message already applied, changed", body: .weaponSelected(WeaponSelected(weapon: .smoke)), id: "applied-1",
             code: nil, duplicate: true),
        Case(name: "a message roster does not handle", body: .tap(Tap(element: "add")), code: "unknown-type"),
        Case(name: "a backup outside its folder", body: .backupRequest(BackupRequest(path: "../escaped.db")), code: "backup-path"),
        Case(name: "a backup over an earlier one", body: .backupRequest(BackupRequest(path: "taken.db")), code: "backup-path"),
        Case(name: "the weapon the monster has", body: .weaponSelected(WeaponSelected(weapon: .fire)), code: nil),
    ]

    @Test(arguments: cases)
    func aRefusalChangesNoStateNoFileAndPublishesOnlyItsError(_ refusal: Case) throws {
        var handler = try started()
        let snapshot = handler.core.snapshot(for: "ipad"), selections = handler.core.selections
        let position = handler.position
        let before = try files()
        #expect(before["roster.db.acknowledged"] != nil && before["backups/taken.db"] != nil)

        let reply = handler.handle(envelope(refusal.body, device: refusal.device, id: refusal.id))
        #expect(reply.effects.map { $0.errorBody?.code } == (refusal.code.map { [$0] } ?? []), "\(reply.effects)")
        #expect(reply.duplicate == refusal.duplicate)
        #expect(handler.core.snapshot(for: "ipad") == snapshot)
        #expect(handler.core.selections == selections)
        #expect(handler.position == position)
        #expect(try files() == before)

        // The next change is the next revision, on the monster as it was.
        let next = handler.handle(envelope(.colorSelected(ColorSelected(color: .red))))
        let expected = try #require(Catalogue.monster(named: "Dog-Bot")).with(weapon: .fire).with(color: .red)
        #expect(next.effects.map(\.body) == [.monsterUpdated(MonsterUpdated(
            revision: position.revision + 1, monster: expected, change: "color", databaseId: position.databaseId))])
    }
}

extension Effect {
    fileprivate var errorBody: ErrorBody? { if case .error(let body) = self.body { body } else { nil } }
}
