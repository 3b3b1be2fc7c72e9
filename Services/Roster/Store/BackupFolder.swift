import Glibc

/// The one folder `gateway roster backup FILE` may write in (`ROSTER_BACKUP_DIR`, default
/// `backups` beside the database): a bus client chooses a backup's name, never where in
/// roster's file system a new file appears. FILE is a plain name, or an absolute path directly
/// inside the folder (symbolic links resolved); anything else is refused before a byte is written.
public struct BackupFolder: Sendable, Equatable {
    /// The folder, as configured.
    public let path: String

    /// Backups go in `path` (roster makes it at start, `make`, when missing).
    public init(path: String) { self.path = path }

    /// The default: `backups` in the database's folder.
    public init(besideDatabase database: String) {
        let folder = database.lastIndex(of: "/").map { String(database[..<$0]) } ?? "."
        path = (folder.isEmpty ? "" : folder) + "/backups"
    }

    /// The file to write for `requested`, or why it is refused (for the requester).
    public func file(for requested: String) -> Result<String, BackupRefusal> {
        let name: String
        if !requested.contains("/") {
            name = requested
        } else {
            guard requested.hasPrefix("/") else {
                return .failure(refusal("'\(requested)' is neither a file name nor an absolute path"))
            }
            let slash = requested.lastIndex(of: "/")!
            name = String(requested[requested.index(after: slash)...])
            let parent = slash == requested.startIndex ? "/" : String(requested[..<slash])
            guard let folder = Self.resolved(path), let resolvedParent = Self.resolved(parent), resolvedParent == folder else {
                return .failure(refusal("'\(requested)' is outside it"))
            }
        }
        guard !name.isEmpty, name != ".", name != "..", !name.utf8.contains(0) else {
            return .failure(refusal("'\(requested)' names no file"))
        }
        guard let folder = Self.resolved(path) else {
            return .failure(BackupRefusal(description: "the backup folder \(path) (ROSTER_BACKUP_DIR) does not exist"))
        }
        let file = folder + "/" + name
        var info = stat()
        guard lstat(file, &info) != 0 else {
            return .failure(BackupRefusal(description: "\(file) exists: choose a new file (a backup never overwrites)"))
        }
        return .success(file)
    }

    private func refusal(_ what: String) -> BackupRefusal {
        BackupRefusal(description: "backups are written only in \(path) (ROSTER_BACKUP_DIR): \(what); give a file name, or a path directly in that folder")
    }

    /// Makes the folder itself when missing (not its parents), for roster's user only.
    public func make() throws(BackupRefusal) {
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw BackupRefusal(description: "the backup folder \(path) (ROSTER_BACKUP_DIR) cannot be made: \(String(cString: strerror(errno)))")
        }
    }

    /// `path` with every symbolic link, `.` and `..` resolved; nil when it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }
}

/// Why a backup is refused, for the requester.
public struct BackupRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and what to do.
    public let description: String
}
