import Domain
import ProcessSupport

/// Parses the gateway's command line, `gateway [OPTIONS] COMMAND [ARGS]`, by the declarations
/// in `GatewayCommands`. Global options may come before or after the command, as with git.
public enum CommandLineParser {
    /// The invocation `arguments` (without the program name) ask for.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Invocation {
        var timeout = 5.0
        if let text = environment["GATEWAY_TIMEOUT"], !text.isEmpty {
            // Refused as --timeout would be: never silently replaced by the default.
            guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                throw UsageError("GATEWAY_TIMEOUT takes seconds between 0 and 3600, not '\(text)'")
            }
            timeout = seconds
        }
        var retryInterval: Double?
        if let text = environment["GATEWAY_RETRY_MS"], !text.isEmpty {
            // A value that is no interval would turn the retries off without a word: refused.
            guard let milliseconds = Int(text), milliseconds >= 0, milliseconds <= 3_600_000 else {
                throw UsageError("GATEWAY_RETRY_MS takes milliseconds between 0 (no retry) and 3600000, not '\(text)'")
            }
            retryInterval = milliseconds > 0 ? Double(milliseconds) / 1000 : nil
        }
        var draft = CommandLineDraft(
            device: environment["GATEWAY_DEVICE"].flatMap { $0.isEmpty ? nil : $0 } ?? "ipad", timeout: timeout)
        var positional: [String] = []
        /// The command-only options given, with the command each belongs to.
        var commandOptions: [(option: String, command: String)] = []

        var index = 0
        while index < arguments.count {
            let (word, inline) = OptionWord.split(arguments[index])
            guard let (option, owner) = option(named: word) else {
                if word.hasPrefix("-") && word.count > 1 && Double(word) == nil {
                    throw UsageError("unknown option '\(word)'", command: positional.first)
                }
                positional.append(arguments[index])
                index += 1
                continue
            }
            let value = try OptionWord.value(placeholder: option.value, inline: inline, in: arguments, at: &index) { problem in
                switch problem {
                case .missing(let placeholder): UsageError("option \(word) needs a value (\(placeholder))")
                case .unexpected: UsageError("option \(word) takes no value", command: owner)
                }
            } ?? ""
            try option.apply(&draft, value)
            if let owner { commandOptions.append((word, owner)) }
            index += 1
        }

        guard draft.device.utf8.count <= 64, !draft.device.isEmpty else { throw UsageError("a device id has 1 to 64 characters") }
        let profile = try resolveProfile(device: draft.device, name: draft.profileName, overrides: draft.overrides)
        let command: GatewayCommand
        if draft.helpRequested {
            command = .help(positional.first.flatMap { GatewayCommands.command(named: $0)?.name })
        } else if draft.versionRequested {
            command = .version
        } else if let name = positional.first {
            guard let declaration = GatewayCommands.command(named: name) else { throw UsageError("unknown command '\(name)'") }
            if let stray = commandOptions.first(where: { $0.command != name }) {
                throw UsageError("\(stray.option) only goes with \(stray.command)", command: stray.command)
            }
            let built = try declaration.build(draft, Array(positional.dropFirst()))
            if case .help(let topic?) = built, GatewayCommands.command(named: topic) == nil {
                command = .help(nil)
            } else {
                command = built
            }
        } else {
            throw UsageError("no command given")
        }
        return Invocation(
            device: draft.device, deviceGiven: draft.deviceGiven, profile: profile, json: draft.json, timeout: draft.timeout,
            command: command, trace: draft.trace, format: draft.format, validate: draft.validate, embedded: draft.embedded,
            retryInterval: retryInterval)
    }

    /// The option spelt `name`, and the command it belongs to (`nil`: a global option).
    private static func option(named name: String) -> (GatewayOption, String?)? {
        if let global = GatewayCommands.globalOptions.first(where: { $0.names.contains(name) }) { return (global, nil) }
        for command in GatewayCommands.commands {
            if let option = command.options.first(where: { $0.names.contains(name) }) { return (option, command.name) }
        }
        return nil
    }

    /// The profile to send: `--profile`, else the built-in profile named like the device,
    /// changed by any description options; `nil` when nothing describes the device.
    private static func resolveProfile(
        device: String, name: String?, overrides: CommandLineDraft.ProfileOverrides
    ) throws(UsageError) -> DeviceProfile? {
        var profile: DeviceProfile?
        if let name {
            guard let builtIn = DeviceProfile.builtIn[name] else {
                throw UsageError("unknown profile '\(name)'; built-in profiles: \(DeviceProfile.builtIn.keys.sorted().joined(separator: ", "))")
            }
            profile = builtIn
        } else if let builtIn = DeviceProfile.builtIn[device] {
            profile = builtIn
        }
        guard !overrides.isEmpty else { return profile }
        var described = profile ?? (overrides.idiom == .phone ? .iphone : .ipad)
        if let idiom = overrides.idiom {
            if idiom != described.idiom { described = idiom == .phone ? .iphone : .ipad }
        }
        if let screen = overrides.screen { described.screen = screen }
        if let os = overrides.os { described.os = os }
        if let orientation = overrides.orientation { described.orientation = orientation }
        if let widthClass = overrides.widthClass { described.widthClass = widthClass }
        if !described.problems.isEmpty { throw UsageError("this device cannot be: " + described.problems.joined(separator: "; ")) }
        return described
    }
}
