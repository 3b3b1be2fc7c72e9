import Foundation
import ProcessSupport
import Testing
import TestTiers

/// The file rules under `keys init`, held by `TextFile` itself and not only by the command's
/// checks beforehand (a link can appear between the check and the write): nothing is written
/// through or over a symbolic link, and the keys folder is a real folder of mode 0700.
@Suite(.tags(.inMemory)) final class TextFileTests {
    let base: String

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("textfile-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        try "precious\n".write(toFile: base + "/target", atomically: false, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: base) }

    @Test func aSymbolicLinkIsNeverWrittenThroughNorReplaced_withOrWithoutOverwrite() throws {
        try FileManager.default.createSymbolicLink(atPath: base + "/link", withDestinationPath: base + "/target")
        for overwrite in [false, true] {
            #expect(throws: FileError.self) { try TextFile.write("secret\n", to: self.base + "/link", mode: 0o600, overwrite: overwrite) }
            #expect(TextFile.kind(base + "/link") == .symbolicLink, "overwrite: \(overwrite)")
        }
        #expect(try String(contentsOfFile: base + "/target", encoding: .utf8) == "precious\n")
    }

    @Test func aSymbolicLinkToAFolderIsRefusedAsTheKeysFolder() throws {
        try FileManager.default.createDirectory(atPath: base + "/real", withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: base + "/real")
        try FileManager.default.createSymbolicLink(atPath: base + "/keys", withDestinationPath: base + "/real")
        #expect(throws: FileError.self) { try TextFile.makePrivateFolder(self.base + "/keys") }
        let mode = try #require(FileManager.default.attributesOfItem(atPath: base + "/real")[.posixPermissions] as? Int)
        #expect(mode == 0o755, "the link's target was changed")
    }

    @Test func theKeysFolderIsMadePrivate() throws {
        try FileManager.default.createDirectory(atPath: base + "/open", withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: base + "/open")
        try TextFile.makePrivateFolder(base + "/open")
        try TextFile.makePrivateFolder(base + "/new")
        for folder in ["open", "new"] {
            #expect(try FileManager.default.attributesOfItem(atPath: base + "/" + folder)[.posixPermissions] as? Int == 0o700)
        }
    }
}
