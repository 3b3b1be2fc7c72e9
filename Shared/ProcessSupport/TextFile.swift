import Glibc

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
    /// existing file is an error and is left as it is; with it, the file is replaced (a new file
    /// renamed over the old one, so nothing is written through a link to another file). A
    /// symbolic link at `path` is refused either way.
    public static func write(_ text: String, to path: String, mode: mode_t, overwrite: Bool) throws(FileError) {
        if kind(path) == .symbolicLink {
            throw FileError("cannot write \(path): it is a symbolic link (remove it; nothing is written through one)")
        }
        guard overwrite else {
            try write(text, creating: path, mode: mode)
            return
        }
        let temporary = path + ".tmp-\(getpid())"
        try write(text, creating: temporary, mode: mode)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileError("cannot replace \(path)", errno: code)
        }
    }

    /// Writes `text` to a new file at `path` (an error if anything is there, a link included).
    private static func write(_ text: String, creating path: String, mode: mode_t) throws(FileError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
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

    /// What is at a path, without following a symbolic link there.
    public enum Kind: Sendable, Equatable {
        /// Nothing.
        case missing
        /// A regular file.
        case file
        case folder
        /// A symbolic link (wherever it points, even nowhere).
        case symbolicLink
        /// Something else: a device, a socket, a pipe.
        case other
    }

    /// What is at `path` (`lstat`: a symbolic link is reported as one).
    public static func kind(_ path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// Makes the folder at `path` private: created with mode 0700 if missing, else set to
    /// 0700. A symbolic link (or anything but a folder) there is refused.
    public static func makePrivateFolder(_ path: String) throws(FileError) {
        if mkdir(path, 0o700) != 0 && errno != EEXIST { throw FileError("cannot create the folder \(path)", errno: errno) }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if kind(path) == .symbolicLink { throw FileError("\(path) is a symbolic link: the keys folder must be a real folder") }
            throw FileError("cannot open the folder \(path)", errno: code)
        }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o700) == 0 else { throw FileError("cannot make \(path) private (mode 0700)", errno: errno) }
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
