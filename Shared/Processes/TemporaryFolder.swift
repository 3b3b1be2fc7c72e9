import Foundation

/// A fresh temporary folder, removed when the value is released.
public final class TemporaryFolder {
    /// The folder's path.
    public let path: String

    /// Creates the folder.
    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("monster-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to `name` in the folder.
    public func write(_ name: String, _ text: String) throws {
        try text.write(toFile: file(name), atomically: false, encoding: .utf8)
    }

    /// The permission bits of `name`.
    public func mode(_ name: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: file(name))[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
