import Glibc

/// A small file beside the database (`ROSTER_DB.acknowledged`) holding the last position the
/// roster acknowledged: the database id, the revision and the commit count. It is replaced
/// after every commit, before the acknowledgement, so it outlives the database's loss and
/// tells a database that is missing, empty, older or another one from the one clients were
/// told about.
public struct AcknowledgedMarker: Sendable {
    /// Where the marker is kept: the database's path with `.acknowledged` after it.
    public let path: String

    /// The marker of the database at `databasePath`.
    public init(databasePath: String) { path = databasePath + ".acknowledged" }

    /// Whether the file exists.
    public var exists: Bool { access(path, F_OK) == 0 }

    /// The position recorded, or nil when there is no marker; throws when it cannot be read.
    public func read() throws(StoreFileError) -> StoredPosition? {
        guard exists else { return nil }
        guard let file = fopen(path, "r") else { throw StoreFileError("cannot read \(path): \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        var text = ""
        var buffer = [CChar](repeating: 0, count: 512)
        while fgets(&buffer, Int32(buffer.count), file) != nil {
            text += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let id = fields["database-id"], let revision = fields["revision"].flatMap({ UInt64($0) }),
              let commits = fields["commits"].flatMap({ UInt64($0) })
        else { throw StoreFileError("\(path) is not a roster acknowledgement marker (expected lines database-id, revision, commits)") }
        return StoredPosition(databaseId: id, revision: revision, commits: commits)
    }

    /// The size of every record: a record is always rewritten whole, in place, in one write
    /// within one disk sector, so a reader finds the old record or the new one, never a mix.
    public static let recordBytes = 256

    /// Records `position`. The first record makes the file durably (temporary file, fsync,
    /// rename); later ones overwrite it in place without an fsync of their own: the database's
    /// commit is already synced (synchronous = FULL), and what the marker guards against —
    /// a database deleted, emptied, rewound or replaced — leaves the page cache intact (see
    /// docs/durability.md, "What survives what": after a power loss the marker can only lag).
    public func write(_ position: StoredPosition) throws(StoreFileError) {
        var text = "database-id \(position.databaseId)\nrevision \(position.revision)\ncommits \(position.commits)\n"
        guard text.utf8.count < Self.recordBytes else { throw StoreFileError("the database id is too long for \(path)") }
        text += String(repeating: " ", count: Self.recordBytes - 1 - text.utf8.count) + "\n"
        let bytes = Array(text.utf8)
        if exists {
            let descriptor = open(path, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw StoreFileError("cannot write \(path): \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            guard written == bytes.count else {
                throw StoreFileError("cannot record the acknowledged position in \(path): \(String(cString: strerror(errno)))")
            }
            return
        }
        let temporary = path + ".tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StoreFileError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw StoreFileError("cannot record the acknowledged position in \(path): \(reason)")
        }
        // Make the rename itself durable.
        let folderPath = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}

/// A file beside the database that could not be read or written.
public struct StoreFileError: Error, CustomStringConvertible {
    /// What went wrong, naming the file.
    public let description: String
    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
