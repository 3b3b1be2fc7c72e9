import Domain
import Foundation
import ProcessSupport

/// `gateway screen`: asks the services for the device's state and draws it.
enum ScreenCommand {
    static func run(_ invocation: Invocation, out: String?, session: GatewaySession) throws -> ActionOutcome {
        // Inside a scenario too, a FILE that cannot be written is refused before the bus is asked.
        if let out { try checkWritable(out) }
        var describe = invocation
        describe.command = .describe
        let outcome = try session.perform(describe, printing: false)
        var device: DeviceState?
        var input: InputState?
        var roster: RosterSnapshot?
        for message in outcome.messages {
            switch message.body {
            case .deviceState(let state): device = state
            case .inputState(let state): input = state
            case .snapshot(let snapshot): roster = snapshot
            case .error: session.output.print(message)
            default: break
            }
        }
        guard let device else { return ActionOutcome(messages: outcome.messages, status: ExitStatus.refused) }
        let svg = ScreenRenderer.svg(device: device, input: input, roster: roster, deviceName: invocation.device)
        guard let out else {
            print(svg)
            return outcome
        }
        do {
            if out.lowercased().hasSuffix(".png") {
                let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("screen-\(UUID().uuidString).svg")
                defer { try? FileManager.default.removeItem(at: temporary) }
                try Data(svg.utf8).write(to: temporary)
                try PNGConverter.convert(svgFile: temporary.path, pngFile: out, scale: 2)
            } else {
                try Data(svg.utf8).write(to: URL(fileURLWithPath: out))
            }
        } catch {
            throw FileError("cannot write \(out): \(error)")
        }
        if !session.output.json { print("screen of \(invocation.device) written to \(out)") }
        return outcome
    }

    /// Refuses, before anything is asked of the bus, a FILE that cannot be written: its folder
    /// is missing or not writable, or it exists and is not writable.
    static func checkWritable(_ path: String) throws(FileError) {
        let files = FileManager.default
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isFolder) {
            guard !isFolder.boolValue, files.isWritableFile(atPath: path) else { throw FileError("cannot write \(path): not a writable file") }
        } else {
            guard files.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw FileError("cannot write \(path): the folder \(folder) does not exist")
            }
            guard files.isWritableFile(atPath: folder) else { throw FileError("cannot write \(path): the folder \(folder) is not writable") }
        }
    }
}
