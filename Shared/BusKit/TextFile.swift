#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small files read and written with POSIX calls, so that errors name the file and the
/// system's reason, and a file is created with its final permissions (a secret is never
/// readable by others, not even for a moment).
public enum TextFile {
    /// The contents of the file at `path` as UTF-8 text, if it is at most `limit` bytes.
    public static func read(_ path: String, limit: Int = 65_536) throws(FileError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError("cannot read \(path)", errno: errno) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError("cannot read \(path)", errno: errno)
            }
            if count == 0 { break }
            bytes += buffer[..<count]
            guard bytes.count <= limit else { throw FileError("\(path) is larger than \(limit) bytes") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw FileError("\(path) is not UTF-8 text") }
        return text
    }

    /// Writes `text` to `path` with permissions `mode` (e.g. `0o600`). Without `overwrite`, an
    /// existing file is an error and is left as it is; with it, the file is replaced and its
    /// permissions set to `mode`.
    public static func write(_ text: String, to path: String, mode: mode_t, overwrite: Bool) throws(FileError) {
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (overwrite ? 0 : O_EXCL)
        let descriptor = open(path, flags, mode)
        guard descriptor >= 0 else { throw FileError("cannot write \(path)", errno: errno) }
        defer { close(descriptor) }
        guard fchmod(descriptor, mode) == 0 else { throw FileError("cannot set the permissions of \(path)", errno: errno) }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError("cannot write \(path)", errno: errno)
            }
            offset += count
        }
    }

    /// Whether something exists at `path`.
    public static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Creates the folder at `path` with permissions `mode` if it does not exist yet.
    public static func makeFolder(_ path: String, mode: mode_t = 0o755) throws(FileError) {
        if mkdir(path, mode) != 0 && errno != EEXIST { throw FileError("cannot create the folder \(path)", errno: errno) }
    }

    /// The names in the folder at `path`, sorted, without `.` and `..`.
    public static func list(_ path: String) throws(FileError) -> [String] {
        guard let folder = opendir(path) else { throw FileError("cannot read the folder \(path)", errno: errno) }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

/// A file that cannot be read or written, and why.
public struct FileError: Error, Equatable, CustomStringConvertible {
    /// What failed, with the path, then the system's reason (`strerror`) when there is one.
    public let description: String

    /// An error saying `text`, followed by the system's reason for `errno` if given.
    public init(_ text: String, errno code: Int32? = nil) {
        description = code.map { "\(text): \(String(cString: strerror($0)))" } ?? text
    }
}
