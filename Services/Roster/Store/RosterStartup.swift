import Glibc

/// How the roster was asked to start.
public enum StartMode: Sendable, Equatable {
    /// On the database as it is, refusing on evidence of loss.
    case normal
    /// On a new, empty database (`roster --reset` or `ROSTER_RESET=1`): the current files are
    /// kept aside, renamed `….reset-TIME`.
    case reset
    /// On a copy of the backup at the path (`roster --restore FILE`), its database id kept; the
    /// current files are kept aside, renamed `….before-restore-TIME`.
    case restore(String)
}

/// Opens the roster's database for a start, or refuses with a reason naming the files and what
/// to do: the database is missing or empty while the marker says changes were acknowledged,
/// older than acknowledged, another database than acknowledged, or damaged (`quick_check`).
/// A data folder with neither file is a first run.
public enum RosterStartup {
    /// The database, ready, its position (recorded in the marker), and what was done, for the log.
    public static func open(path: String, mode: StartMode, now: Int) throws(StartupRefusal) -> (RosterDatabase, StoredPosition, [String]) {
        let marker = AcknowledgedMarker(databasePath: path)
        var notes: [String] = []
        switch mode {
        case .normal: break
        case .reset:
            let moved = moveAside(path, suffix: ".reset-\(now)")
            notes.append("started a new, empty database on purpose (reset)" + (moved.isEmpty ? "" : "; kept aside: " + moved.joined(separator: ", ")))
        case .restore(let backup):
            notes.append(try restore(backup, into: path, suffix: ".before-restore-\(now)"))
        }
        let acknowledged: StoredPosition?
        do {
            acknowledged = try marker.read()
        } catch {
            throw StartupRefusal("\(error). If \(path) is known to be right, delete \(marker.path) to accept it as it is; otherwise restore a backup (roster --restore FILE).")
        }
        let size = fileSize(path)
        let wal = path + "-wal"
        let walSize = fileSize(wal) ?? 0
        if size == nil || size == 0 {
            let state = size == nil ? "is missing" : "is empty (0 bytes)"
            if let acknowledged {
                throw StartupRefusal(
                    "\(path) \(state), but \(marker.path) records \(acknowledged) as acknowledged to clients"
                    + (walSize > 0 ? " (and \(wal) is left behind)" : "") + ": those changes would be lost. "
                    + Self.advice(path))
            }
            if walSize > 0 {
                throw StartupRefusal("\(path) \(state) but \(wal) holds \(walSize) bytes of its changes: the database was lost. " + Self.advice(path))
            }
        }
        do {
            let database = try RosterDatabase(path: path)
            // A refused start leaves the files as they were, for whoever looks into them: until
            // the database is accepted, closing it must not fold a WAL left behind into it (nor
            // delete it). Without one, closing removes the WAL that opening made.
            try database.checkpointOnClose(fileSize(wal) == nil)
            try database.quickCheck()
            if let acknowledged {
                guard let stored = try database.position() else {
                    throw StartupRefusal("\(path) holds no roster, but \(marker.path) records \(acknowledged) as acknowledged. " + Self.advice(path))
                }
                guard stored.databaseId == acknowledged.databaseId else {
                    throw StartupRefusal(
                        "\(path) is database \(stored.databaseId.isEmpty ? "(without an id)" : stored.databaseId), but \(marker.path) records \(acknowledged) as acknowledged: it is another database. "
                        + Self.advice(path))
                }
                guard stored.revision >= acknowledged.revision, stored.commits >= acknowledged.commits else {
                    throw StartupRefusal(
                        "\(path) is at \(stored), older than \(acknowledged) recorded in \(marker.path) as acknowledged: acknowledged changes are missing (a deleted or truncated \(wal)?). "
                        + Self.advice(path))
                }
            } else if try database.position() != nil {
                notes.append("\(marker.path) was missing: it now records this database's position")
            }
            try database.checkpointOnClose(true)
            let position = try database.prepare()
            try marker.write(position)
            return (database, position, notes)
        } catch let refusal as StartupRefusal {
            throw refusal
        } catch {
            throw StartupRefusal("\(path) cannot be used: \(error). " + Self.advice(path))
        }
    }

    /// What to do after a refusal.
    static func advice(_ path: String) -> String {
        "To start on a backup: roster --restore FILE (gateway roster backup FILE makes one). To start a new, empty roster on purpose: roster --reset (or ROSTER_RESET=1 once); the current files are then kept aside as \(path).reset-TIME."
    }

    /// Copies the backup at `backup` into `path` (after checking it), keeping its database id.
    private static func restore(_ backup: String, into path: String, suffix: String) throws(StartupRefusal) -> String {
        guard fileSize(backup).map({ $0 > 0 }) == true else { throw StartupRefusal("the backup \(backup) is missing or empty") }
        do {
            let copy = try RosterDatabase(path: backup)
            try copy.quickCheck()
            guard let position = try copy.position(), !position.databaseId.isEmpty else {
                throw StartupRefusal("\(backup) is not a roster backup (it holds no roster database id)")
            }
            let moved = moveAside(path, suffix: suffix)
            try copy.backup(to: path)
            try AcknowledgedMarker(databasePath: path).write(position)
            return "restored \(backup) (\(position))" + (moved.isEmpty ? "" : "; kept aside: " + moved.joined(separator: ", "))
        } catch let refusal as StartupRefusal {
            throw refusal
        } catch {
            throw StartupRefusal("cannot restore \(backup) into \(path): \(error)")
        }
    }

    /// Renames the database, its -wal and -shm and its marker to NAME+suffix; returns the new names.
    private static func moveAside(_ path: String, suffix: String) -> [String] {
        var moved: [String] = []
        for (file, aside) in [(path, path + suffix), (path + "-wal", path + suffix + "-wal"), (path + "-shm", path + suffix + "-shm"),
                              (path + ".acknowledged", path + suffix + ".acknowledged")]
        where access(file, F_OK) == 0 && rename(file, aside) == 0 {
            moved.append(aside)
        }
        return moved
    }

    /// The size of the file at `path`, or nil if there is none.
    public static func fileSize(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}

/// Why the roster refuses to start: what is wrong, naming the files, and what to do.
public struct StartupRefusal: Error, CustomStringConvertible {
    /// The reason and the advice.
    public let description: String
    /// A refusal saying `description`.
    public init(_ description: String) { self.description = description }
}
