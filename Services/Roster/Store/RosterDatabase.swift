import MonsterKit
import RosterCore

/// The roster's durable state in SQLite (WAL): monsters' weapons and colours, the revision,
/// each device's selection, and the ids of messages already applied (so a message delivered
/// twice changes nothing the second time). Every change is one transaction, committed before
/// anything about it is published.
public final class RosterDatabase {
    private let connection: SQLiteConnection
    /// How many applied message ids are kept for duplicate detection.
    public static let appliedIdsKept: Int64 = 100_000

    /// Opens or creates the database at `path`, with the six monsters seeded on first use.
    public init(path: String) throws(SQLiteError) {
        connection = try SQLiteConnection(path: path)
        try connection.execute("""
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            CREATE TABLE IF NOT EXISTS monsters (
                position INTEGER NOT NULL, name TEXT PRIMARY KEY, weapon INTEGER NOT NULL, color TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS selections (device TEXT PRIMARY KEY, monster TEXT NOT NULL);
            CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS applied (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE);
            """)
        try connection.transaction { () throws(SQLiteError) in
            for (position, monster) in Catalogue.monsters.enumerated() {
                try connection.query(
                    "INSERT OR IGNORE INTO monsters (position, name, weapon, color) VALUES (?, ?, ?, ?)",
                    [.integer(Int64(position)), .text(monster.name), .integer(Int64(monster.weapon.rawValue)), .text(monster.color.rawValue)])
            }
            try connection.query("INSERT OR IGNORE INTO meta (key, value) VALUES ('revision', 0)")
        }
    }

    /// The roster as stored.
    public func load() throws(SQLiteError) -> RosterCore {
        var monsters: [Monster] = []
        for row in try connection.query("SELECT name, weapon, color FROM monsters ORDER BY position") {
            guard case .text(let name) = row[0], case .integer(let weaponValue) = row[1], case .text(let colorName) = row[2],
                  let base = Catalogue.monster(named: name), let weapon = Weapon(rawValue: Int(weaponValue)),
                  let color = NameColor(rawValue: colorName)
            else { throw SQLiteError(code: -1, message: "the monsters table holds a row this version cannot read: \(row)") }
            monsters.append(base.with(weapon: weapon).with(color: color))
        }
        var selections: [String: String] = [:]
        for row in try connection.query("SELECT device, monster FROM selections") {
            if case .text(let device) = row[0], case .text(let monster) = row[1] { selections[device] = monster }
        }
        var revision: UInt64 = 0
        if case .integer(let value)? = try connection.query("SELECT value FROM meta WHERE key = 'revision'").first?.first {
            revision = UInt64(value)
        }
        return RosterCore(monsters: monsters, revision: revision, selections: selections)
    }

    /// Whether the message `id` was applied before.
    public func hasApplied(_ id: String) throws(SQLiteError) -> Bool {
        !(try connection.query("SELECT 1 FROM applied WHERE id = ?", [.text(id)])).isEmpty
    }

    /// Stores `change`, made by message `id`, in one transaction.
    public func store(_ change: RosterChange, messageId id: String) throws(SQLiteError) {
        try connection.transaction { () throws(SQLiteError) in
            switch change {
            case .monster(let monster, let revision):
                try connection.query(
                    "UPDATE monsters SET weapon = ?, color = ? WHERE name = ?",
                    [.integer(Int64(monster.weapon.rawValue)), .text(monster.color.rawValue), .text(monster.name)])
                try connection.query("UPDATE meta SET value = ? WHERE key = 'revision'", [.integer(Int64(revision))])
            case .selection(let device, let monster):
                try connection.query(
                    "INSERT INTO selections (device, monster) VALUES (?, ?) ON CONFLICT(device) DO UPDATE SET monster = excluded.monster",
                    [.text(device), .text(monster)])
            }
            try connection.query("INSERT OR IGNORE INTO applied (id) VALUES (?)", [.text(id)])
            try connection.query(
                "DELETE FROM applied WHERE seq <= (SELECT MAX(seq) FROM applied) - ?", [.integer(Self.appliedIdsKept)])
        }
    }
}
