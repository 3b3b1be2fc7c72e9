import Domain
import RosterCore

/// What a roster database says about itself: its identity, revision and how many changes it
/// has committed (each stored message counts one).
public struct StoredPosition: Sendable, Equatable, CustomStringConvertible {
    /// The database's identity, a UUID made when it was created.
    public var databaseId: String
    /// The roster revision (weapon and colour changes).
    public var revision: UInt64
    /// The number of changes committed (selections and forgets included).
    public var commits: UInt64
    /// A position from its parts.
    public init(databaseId: String, revision: UInt64, commits: UInt64) {
        self.databaseId = databaseId; self.revision = revision; self.commits = commits
    }
    /// For a person: `revision 13, commit 27 of database 1f3c…`.
    public var description: String { "revision \(revision), commit \(commits) of database \(databaseId)" }
}

/// The roster's durable state in SQLite (WAL, synchronous FULL): monsters' weapons and colours,
/// the revision, the database's identity, each device's selection (and when it was last made),
/// and the ids of messages already applied (so a message delivered twice changes nothing the
/// second time). Every change is one transaction, committed before anything about it is published.
public final class RosterDatabase {
    private let connection: SQLiteConnection
    /// The file.
    public let path: String
    /// How many applied message ids are kept for duplicate detection.
    public static let appliedIdsKept: Int64 = 100_000

    /// Opens the database at `path` (creating the file if needed), without changing it.
    public init(path: String) throws(SQLiteError) {
        self.path = path
        connection = try SQLiteConnection(path: path)
    }

    /// Whether closing the database checkpoints its WAL into it and deletes the WAL (the
    /// default); off while a start is still deciding whether to refuse it.
    public func checkpointOnClose(_ enabled: Bool) throws(SQLiteError) {
        try connection.checkpointOnClose(enabled)
    }

    /// Checks the file's structure (`PRAGMA quick_check`); throws what SQLite found wrong.
    public func quickCheck() throws(SQLiteError) {
        let rows = try connection.query("PRAGMA quick_check")
        let problems = rows.compactMap { row -> String? in
            guard case .text(let text)? = row.first, text != "ok" else { return nil }
            return text
        }
        if !problems.isEmpty {
            throw SQLiteError(code: 11, message: "quick_check found damage: " + problems.prefix(5).joined(separator: "; "))
        }
    }

    /// The identity, revision and commit count stored, or nil when the file holds no roster
    /// (a new, empty database).
    public func position() throws(SQLiteError) -> StoredPosition? {
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('identity', 'meta')")
        guard !tables.isEmpty else { return nil }
        var databaseId = ""
        if tables.contains([.text("identity")]),
           case .text(let id)? = try connection.query("SELECT value FROM identity WHERE key = 'database-id'").first?.first {
            databaseId = id
        }
        var revision: UInt64 = 0
        if case .integer(let value)? = try connection.query("SELECT value FROM meta WHERE key = 'revision'").first?.first {
            revision = UInt64(max(0, value))
        }
        var commits: UInt64 = 0
        if case .integer(let value)? = try connection.query("SELECT seq FROM sqlite_sequence WHERE name = 'applied'").first?.first {
            commits = UInt64(max(0, value))
        }
        return StoredPosition(databaseId: databaseId, revision: revision, commits: commits)
    }

    /// Creates what is missing (tables, the six monsters, an identity) and returns the position.
    public func prepare() throws(SQLiteError) -> StoredPosition {
        try connection.execute("""
            PRAGMA auto_vacuum = INCREMENTAL;
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = FULL;
            CREATE TABLE IF NOT EXISTS monsters (
                position INTEGER NOT NULL, name TEXT PRIMARY KEY, weapon INTEGER NOT NULL, color TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS selections (device TEXT PRIMARY KEY, monster TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS identity (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS applied (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE);
            """)
        let columns = try connection.query("PRAGMA table_info(selections)").compactMap { row -> String? in
            if case .text(let name) = row[1] { return name } else { return nil }
        }
        try connection.transaction { () throws(SQLiteError) in
            if !columns.contains("used") {
                try connection.execute("ALTER TABLE selections ADD COLUMN used INTEGER NOT NULL DEFAULT 0")
            }
            for (position, monster) in Catalogue.monsters.enumerated() {
                try connection.query(
                    "INSERT OR IGNORE INTO monsters (position, name, weapon, color) VALUES (?, ?, ?, ?)",
                    [.integer(Int64(position)), .text(monster.name), .integer(Int64(monster.weapon.rawValue)), .text(monster.color.rawValue)])
            }
            try connection.query("INSERT OR IGNORE INTO meta (key, value) VALUES ('revision', 0)")
            try connection.query("INSERT OR IGNORE INTO identity (key, value) VALUES ('database-id', ?)", [.text(Self.newIdentity())])
        }
        guard let position = try position() else { throw SQLiteError(code: -1, message: "the roster tables were not created") }
        return position
    }

    /// The roster as stored, and when each device last made a selection (seconds since 1970).
    public func load() throws(SQLiteError) -> (core: RosterCore, lastUsed: [String: Double]) {
        var monsters: [Monster] = []
        for row in try connection.query("SELECT name, weapon, color FROM monsters ORDER BY position") {
            guard case .text(let name) = row[0], case .integer(let weaponValue) = row[1], case .text(let colorName) = row[2],
                  let base = Catalogue.monster(named: name), let weapon = Weapon(rawValue: Int(weaponValue)),
                  let color = NameColor(rawValue: colorName)
            else { throw SQLiteError(code: -1, message: "the monsters table holds a row this version cannot read: \(row)") }
            monsters.append(base.with(weapon: weapon).with(color: color))
        }
        var selections: [String: String] = [:]
        var lastUsed: [String: Double] = [:]
        for row in try connection.query("SELECT device, monster, used FROM selections") {
            if case .text(let device) = row[0], case .text(let monster) = row[1] {
                selections[device] = monster
                if case .integer(let used) = row[2] { lastUsed[device] = Double(used) }
            }
        }
        guard let position = try position() else { throw SQLiteError(code: -1, message: "the database holds no roster") }
        let core = RosterCore(monsters: monsters, revision: position.revision, selections: selections, databaseId: position.databaseId)
        return (core, lastUsed)
    }

    /// Whether the message `id` was applied before.
    public func hasApplied(_ id: String) throws(SQLiteError) -> Bool {
        !(try connection.query("SELECT 1 FROM applied WHERE id = ?", [.text(id)])).isEmpty
    }

    /// Stores `change`, made by message `id` at `now` (seconds since 1970), in one transaction;
    /// returns the number of changes committed so far.
    @discardableResult
    public func store(_ change: RosterChange, messageId id: String, now: Double) throws(SQLiteError) -> UInt64 {
        var commits: UInt64 = 0
        try connection.transaction { () throws(SQLiteError) in
            switch change {
            case .monster(let monster, let revision):
                try connection.query(
                    "UPDATE monsters SET weapon = ?, color = ? WHERE name = ?",
                    [.integer(Int64(monster.weapon.rawValue)), .text(monster.color.rawValue), .text(monster.name)])
                try connection.query("UPDATE meta SET value = ? WHERE key = 'revision'", [.integer(Int64(revision))])
            case .selection(let device, let monster):
                try connection.query(
                    "INSERT INTO selections (device, monster, used) VALUES (?, ?, ?) ON CONFLICT(device) DO UPDATE SET monster = excluded.monster, used = excluded.used",
                    [.text(device), .text(monster), .integer(Int64(now))])
            case .forget(let device):
                try connection.query("DELETE FROM selections WHERE device = ?", [.text(device)])
            }
            try connection.query("INSERT OR IGNORE INTO applied (id) VALUES (?)", [.text(id)])
            try connection.query(
                "DELETE FROM applied WHERE seq <= (SELECT MAX(seq) FROM applied) - ?", [.integer(Self.appliedIdsKept)])
            if case .integer(let value)? = try connection.query("SELECT MAX(seq) FROM applied").first?.first { commits = UInt64(value) }
        }
        return commits
    }

    /// Deletes the selections of `devices` (forgotten for being idle) and gives the freed pages
    /// back to the file system.
    public func forget(_ devices: [String]) throws(SQLiteError) {
        guard !devices.isEmpty else { return }
        try connection.transaction { () throws(SQLiteError) in
            for device in devices { try connection.query("DELETE FROM selections WHERE device = ?", [.text(device)]) }
        }
        try connection.execute("PRAGMA incremental_vacuum")
    }

    /// Writes a consistent copy of the database to `path` (SQLite's online backup API).
    public func backup(to path: String) throws(SQLiteError) {
        try connection.backup(to: path)
    }

    /// A new random (version 4) UUID, lower case.
    public static func newIdentity() -> String {
        var generator = SystemRandomNumberGenerator()
        return identity((0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The version 4 UUID made of 16 random `bytes`, lower case: `8-4-4-4-12` hex digits.
    static func identity(_ random: [UInt8]) -> String {
        var bytes = random
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = bytes.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }
}
