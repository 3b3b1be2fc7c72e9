import Foundation

/// A new empty folder for one test's database files, removed with everything in it when the
/// test is done.
final class DataFolder {
    let url: URL

    /// A folder named `prefix-UUID` in the system's temporary folder.
    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of the file `name` in the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
