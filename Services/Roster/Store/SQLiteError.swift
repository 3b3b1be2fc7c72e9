import CSQLite

/// An SQLite failure: the result code and SQLite's message.
public struct SQLiteError: Error, CustomStringConvertible {
    /// SQLite's result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …).
    public let code: Int32
    /// What was being done, then SQLite's own message for the failure.
    public let message: String
    /// The error for a person and the logs: `SQLite error CODE: message`.
    public var description: String { "SQLite error \(code): \(message)" }

    /// The error after a call on `handle` returned `code`.
    static func check(_ code: Int32, _ handle: OpaquePointer?, _ what: String) throws(SQLiteError) {
        guard code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW else { return }
        let text = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        throw SQLiteError(code: code, message: "\(what): \(text)")
    }
}
