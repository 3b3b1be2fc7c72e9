import CSQLite
import Glibc

/// A value bound to a statement parameter or read from a column.
public enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case null
}

/// One SQLite database connection, used from one thread.
public final class SQLiteConnection {
    private var handle: OpaquePointer?

    /// Opens (creating if needed) the database at `path`.
    public init(path: String) throws(SQLiteError) {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        if code != SQLITE_OK {
            let error = SQLiteError(code: code, message: "open \(path): " + (handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"))
            sqlite3_close(handle)
            throw error
        }
        sqlite3_busy_timeout(handle, 5000)
    }

    deinit { sqlite3_close(handle) }

    /// Whether closing the connection (the last one to the file) checkpoints the WAL into the
    /// database and deletes it, as SQLite does by default.
    public func checkpointOnClose(_ enabled: Bool) throws(SQLiteError) {
        try SQLiteError.check(monsterbus_sqlite3_no_checkpoint_on_close(handle, enabled ? 0 : 1), handle, "no checkpoint on close")
    }

    /// Runs one or more statements that take no parameters.
    public func execute(_ sql: String) throws(SQLiteError) {
        try SQLiteError.check(sqlite3_exec(handle, sql, nil, nil, nil), handle, sql)
    }

    /// Runs `sql` with `parameters` and returns every row.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        var statement: OpaquePointer?
        try SQLiteError.check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), handle, sql)
        defer { sqlite3_finalize(statement) }
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(statement, index, number)
            case .text(let text): code = Self.bind(text, to: statement, at: index)
            case .null: code = sqlite3_bind_null(statement, index)
            }
            try SQLiteError.check(code, handle, sql)
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return rows }
            guard code == SQLITE_ROW else {
                try SQLiteError.check(code, handle, sql)
                return rows
            }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                case SQLITE_NULL: .null
                default: .text(Self.text(of: statement, at: column))
                }
            })
        }
    }

    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    public func transaction(_ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Copies this database, consistently, into a new file at `path` with SQLite's online backup
    /// API (the pages as of one read transaction, WAL included); the file is removed on failure.
    public func backup(to path: String) throws(SQLiteError) {
        var destination: OpaquePointer?
        // Never through a symbolic link: the file is where the path says.
        let code = sqlite3_open_v2(path, &destination, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, nil)
        defer { sqlite3_close(destination) }
        do throws(SQLiteError) {
            try SQLiteError.check(code, destination, "open \(path)")
            guard let backup = sqlite3_backup_init(destination, "main", handle, "main") else {
                try SQLiteError.check(sqlite3_errcode(destination), destination, "backup to \(path)")
                return
            }
            let step = sqlite3_backup_step(backup, -1)
            let finish = sqlite3_backup_finish(backup)
            guard step == SQLITE_DONE else { throw SQLiteError(code: step, message: "backup to \(path): " + String(cString: sqlite3_errstr(step))) }
            try SQLiteError.check(finish, destination, "backup to \(path)")
        } catch {
            sqlite3_close(destination)
            destination = nil
            unlink(path)
            throw error
        }
    }

    /// Binds `text` with its exact UTF-8 byte length, so a NUL inside cannot cut it short.
    private static func bind(_ text: String, to statement: OpaquePointer?, at index: Int32) -> Int32 {
        if text.isEmpty { return sqlite3_bind_text(statement, index, "", 0, transient) }
        var text = text
        return text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                sqlite3_bind_text(statement, index, chars.baseAddress, Int32(chars.count), transient)
            }
        }
    }

    /// The text of `column`, read with its byte length (not up to the first NUL).
    private static func text(of statement: OpaquePointer?, at column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
    }

    /// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
