import CSQLite

/// An SQLite failure: the result code and SQLite's message.
public struct SQLiteError: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public var description: String { "SQLite error \(code): \(message)" }

    /// The error after a call on `handle` returned `code`.
    static func check(_ code: Int32, _ handle: OpaquePointer?, _ what: String) throws(SQLiteError) {
        guard code != SQLITE_OK && code != SQLITE_DONE && code != SQLITE_ROW else { return }
        let text = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
        throw SQLiteError(code: code, message: "\(what): \(text)")
    }
}
