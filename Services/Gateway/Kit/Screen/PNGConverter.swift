import Domain
import Foundation

/// Turns an SVG file into a PNG with whichever converter is installed: `rsvg-convert` (librsvg),
/// else ImageMagick's `magick` or `convert`. Found by searching `PATH`; run as a subprocess.
public enum PNGConverter {
    /// A program on this machine that can turn SVG into PNG.
    public struct Tool: Sendable, Equatable, CustomStringConvertible {
        /// The programs it knows, in the order `findTool` prefers them.
        public enum Kind: String, Sendable, CaseIterable {
            /// librsvg's `rsvg-convert` (Debian: `librsvg2-bin`).
            case rsvgConvert = "rsvg-convert"
            /// ImageMagick 7's `magick`.
            case magick = "magick"
            /// ImageMagick 6's `convert`.
            case convert = "convert"
        }

        /// Which program it is.
        public let kind: Kind
        /// Its absolute path.
        public let path: String

        /// A tool of `kind` at `path`.
        public init(kind: Kind, path: String) { self.kind = kind; self.path = path }

        /// The command-line arguments that write `svgFile` as `pngFile`, `scale` pixels per point.
        public func arguments(svgFile: String, pngFile: String, scale: Double) -> [String] {
            let scale = scale.isFinite && scale > 0 ? scale : 1
            switch kind {
            case .rsvgConvert:
                return ["--zoom", SVGBuilder.number(scale), "--output", pngFile, svgFile]
            case .magick, .convert:
                // ImageMagick reads SVG at 72 dots per inch unless told: one point, one pixel.
                return ["-density", SVGBuilder.number(72 * scale), svgFile, pngFile]
            }
        }

        /// `rsvg-convert at /usr/bin/rsvg-convert`.
        public var description: String { "\(kind.rawValue) at \(path)" }
    }

    /// Why a conversion did not happen: `no-converter: …`.
    public typealias ConversionError = CodedError<ConversionFailure>

    /// The kinds of failure of a conversion.
    public enum ConversionFailure: String, Sendable {
        /// No converter is installed (on `PATH`).
        case noConverter = "no-converter"
        /// The SVG file is not there.
        case missingInput = "missing-input"
        /// The converter could not be started.
        case launchFailed = "launch-failed"
        /// The converter ran and failed, or wrote no PNG.
        case conversionFailed = "conversion-failed"
    }

    /// The first converter found in the directories of `searchPath` (a `PATH`-style list; the
    /// process's `PATH` by default), preferring `rsvg-convert`, then `magick`, then `convert`;
    /// `nil` when none is installed.
    public static func findTool(searchPath: String? = nil) -> Tool? {
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        // Empty entries would mean the current directory: never run a converter from there.
        let directories = path.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        for kind in Tool.Kind.allCases {
            for directory in directories {
                let candidate = directory.hasSuffix("/") ? directory + kind.rawValue : directory + "/" + kind.rawValue
                if isExecutableFile(candidate) {
                    return Tool(kind: kind, path: candidate)
                }
            }
        }
        return nil
    }

    /// Converts `svgFile` into `pngFile` (overwritten) at `scale` pixels per point, with `tool` or
    /// else the one `findTool(searchPath:)` finds; returns the tool used. Throws `noConverter` when
    /// none is installed, and the converter's own output when it fails.
    @discardableResult
    public static func convert(
        svgFile: String, pngFile: String, scale: Double = 1, tool: Tool? = nil, searchPath: String? = nil
    ) throws(ConversionError) -> Tool {
        guard let tool = tool ?? findTool(searchPath: searchPath) else {
            throw ConversionError(.noConverter, "no SVG to PNG converter on PATH (looked for "
                + Tool.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                + "); install librsvg2-bin (rsvg-convert) or ImageMagick")
        }
        guard FileManager.default.fileExists(atPath: svgFile) else {
            throw ConversionError(.missingInput, "no SVG file at \(svgFile)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool.path)
        process.arguments = tool.arguments(svgFile: svgFile, pngFile: pngFile, scale: scale)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ConversionError(.launchFailed, "could not start \(tool): \(error)")
        }
        // Read before waiting, so a converter that writes a lot cannot block on a full pipe.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let said = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit
                ? "exited with status \(process.terminationStatus)"
                : "was killed by signal \(process.terminationStatus)"
            throw ConversionError(.conversionFailed, "\(tool) \(how)" + (said.isEmpty ? "" : ": " + String(said.suffix(500))))
        }
        guard FileManager.default.fileExists(atPath: pngFile) else {
            throw ConversionError(.conversionFailed, "\(tool) wrote no file at \(pngFile)")
        }
        return tool
    }

    /// Whether `path` is a regular file this process may execute.
    private static func isExecutableFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return false
        }
        return FileManager.default.isExecutableFile(atPath: path)
    }
}
