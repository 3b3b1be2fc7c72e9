import MonsterKit

/// Parses the gateway's command line: `gateway [OPTIONS] COMMAND [ARGS]`. Global options may
/// come before or after the command, as with git.
public enum CommandLineParser {
    /// The invocation `arguments` (without the program name) ask for.
    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Invocation {
        var device = environment["GATEWAY_DEVICE"].flatMap { $0.isEmpty ? nil : $0 } ?? "ipad"
        var profileName: String?
        var overrides = ProfileOverrides()
        var json = false
        var timeout = environment["GATEWAY_TIMEOUT"].flatMap(Double.init).flatMap { $0 > 0 && $0 <= 3600 ? $0 : nil } ?? 5.0
        var helpRequested = false
        var positional: [String] = []
        var tapPoint: Point?
        var deviceGiven = false
        var watchTypes: [String] = []
        var watchCount: Int?
        var screenOut: String?
        var trace = false
        var format: WatchFormat?
        var validate = false
        var embedded = false

        var index = 0
        func value(_ option: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError("option \(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            var argument = arguments[index]
            var inline: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inline = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            func next() throws(UsageError) -> String {
                if let inline { return inline }
                return try value(argument)
            }
            switch argument {
            case "--device":
                device = try next()
                deviceGiven = true
            case "--profile": profileName = try next()
            case "--json": json = true
            case "--timeout":
                let text = try next()
                guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                    throw UsageError("--timeout takes seconds between 0 and 3600, not '\(text)'")
                }
                timeout = seconds
            case "--idiom": overrides.idiom = try parseEnum(Idiom.self, try next(), "--idiom", "pad or phone")
            case "--screen": overrides.screen = try parseSize(try next())
            case "--os":
                let text = try next()
                guard let version = OSVersion(text) else { throw UsageError("--os takes a version such as 17.0 or 3.1.3, not '\(text)'") }
                overrides.os = version
            case "--orientation": overrides.orientation = try parseEnum(Orientation.self, try next(), "--orientation", "portrait or landscape")
            case "--width": overrides.widthClass = try parseEnum(SizeClass.self, try next(), "--width", "regular or compact")
            case "--at": tapPoint = try parsePoint(try next())
            case "--type": watchTypes.append(try next())
            case "--count":
                let text = try next()
                guard let count = Int(text), count > 0 else { throw UsageError("--count takes a positive number, not '\(text)'", command: "watch") }
                watchCount = count
            case "--out": screenOut = try next()
            case "--trace": trace = true
            case "--validate": validate = true
            case "--embedded": embedded = true
            case "--format":
                let text = try next()
                guard let chosen = WatchFormat(rawValue: text) else {
                    throw UsageError("--format takes human, json or cloudevents, not '\(text)'", command: "watch")
                }
                format = chosen
            case "-h", "--help": helpRequested = true
            case "--force", "--if-missing": positional.append(argument)  // keys init options
            case "--version": positional.insert("version", at: 0)
            default:
                if argument.hasPrefix("-") && argument.count > 1 && Double(argument) == nil {
                    throw UsageError("unknown option '\(argument)'", command: positional.first)
                }
                positional.append(arguments[index])
            }
            index += 1
        }

        guard device.utf8.count <= 64, !device.isEmpty else { throw UsageError("a device id has 1 to 64 characters") }
        let profile = try resolveProfile(device: device, name: profileName, overrides: overrides)
        var command: GatewayCommand
        if helpRequested {
            command = .help(positional.first)
        } else if positional.isEmpty {
            throw UsageError("no command given")
        } else {
            command = try parseCommand(positional, tapPoint: tapPoint)
        }
        if !helpRequested {
            try checkOnly(tapPoint != nil, "--at", goesWith: "tap", command)
            try checkOnly(!watchTypes.isEmpty || watchCount != nil, "--type and --count", goesWith: "watch", command)
            try checkOnly(screenOut != nil, "--out", goesWith: "screen", command)
            try checkOnly(format != nil || validate, "--format and --validate", goesWith: "watch", command)
        }
        if case .watch = command { command = .watch(types: watchTypes, count: watchCount) }
        if case .screen = command { command = .screen(out: screenOut) }
        if case .help(let topic?) = command, GatewayHelp.command(named: topic) == nil {
            command = .help(nil)
        }
        var invocation = Invocation(
            device: device, deviceGiven: deviceGiven, profile: profile, json: json, timeout: timeout, command: command,
            trace: trace, format: format, validate: validate)
        invocation.embedded = embedded
        return invocation
    }

    /// Refuses an option given with a command it does not belong to.
    private static func checkOnly(_ given: Bool, _ option: String, goesWith name: String, _ command: GatewayCommand) throws(UsageError) {
        guard given else { return }
        let matches: Bool
        switch (name, command) {
        case ("tap", .tap), ("watch", .watch), ("screen", .screen): matches = true
        default: matches = false
        }
        if !matches { throw UsageError("\(option) only goes with \(name)", command: name) }
    }

    private struct ProfileOverrides {
        var idiom: Idiom?
        var screen: Size?
        var os: OSVersion?
        var orientation: Orientation?
        var widthClass: SizeClass?
        var isEmpty: Bool { idiom == nil && screen == nil && os == nil && orientation == nil && widthClass == nil }
    }

    /// The profile to send: `--profile`, else the built-in profile named like the device,
    /// changed by any description options; `nil` when nothing describes the device.
    private static func resolveProfile(device: String, name: String?, overrides: ProfileOverrides) throws(UsageError) -> DeviceProfile? {
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

    private static func parseCommand(_ words: [String], tapPoint: Point?) throws(UsageError) -> GatewayCommand {
        let name = words[0]
        let arguments = Array(words.dropFirst())
        func exactly(_ count: Int, _ what: String) throws(UsageError) {
            guard arguments.count == count else {
                throw UsageError(arguments.count < count ? "\(name) needs \(what)" : "\(name) takes only \(what); unexpected '\(arguments[count])'", command: name)
            }
        }
        switch name {
        case "tap":
            if let tapPoint {
                try exactly(0, "--at X,Y")
                return .tap(Tap(point: tapPoint))
            }
            try exactly(1, "an element (add, photo, audio, cancel, color, red, green, blue, monster-list, weapon, fire, close, outside, …)")
            return .tap(Tap(element: arguments[0]))
        case "rotate":
            try exactly(1, "portrait or landscape")
            return .rotate(try parseEnum(Orientation.self, arguments[0], "rotate", "portrait or landscape", command: name))
        case "resize":
            try exactly(1, "compact, regular, slide-over, split-view or full-screen")
            if let mode = WindowMode(rawValue: arguments[0]) { return .resizeMode(mode) }
            return .resize(try parseEnum(SizeClass.self, arguments[0], "resize", "compact, regular, slide-over, split-view or full-screen", command: name))
        case "select":
            try exactly(1, "a monster's name, e.g. Dog-Bot")
            return .select(arguments[0])
        case "interaction":
            try exactly(2, "an element and on or off")
            guard let enabled = ["on": true, "off": false][arguments[1]] else {
                throw UsageError("interaction takes on or off, not '\(arguments[1])'", command: name)
            }
            return .interaction(element: arguments[0], enabled: enabled)
        case "describe":
            try exactly(0, "no arguments")
            return .describe
        case "roster":
            if arguments.first == "backup" {
                guard arguments.count == 2 else { throw UsageError("roster backup needs one FILE: an absolute path for the copy", command: name) }
                return .rosterBackup(arguments[1])
            }
            try exactly(0, "no arguments (or backup FILE)")
            return .roster
        case "forget":
            try exactly(1, "a device id")
            return .forget(arguments[0])
        case "status":
            try exactly(0, "no arguments")
            return .status
        case "ping":
            let known = [MonsterBus.Service.bus] + MonsterBus.Service.all
            if let unknown = arguments.first(where: { !known.contains($0) }) {
                throw UsageError("ping takes service names (\(known.joined(separator: ", "))), not '\(unknown)'", command: name)
            }
            return .ping(arguments.isEmpty ? known : arguments)
        case "watch":
            try exactly(0, "options only (--type PREFIX, --count N)")
            return .watch(types: [], count: nil)
        case "run":
            try exactly(1, "a scenario file")
            return .run(arguments[0])
        case "shell":
            try exactly(0, "no arguments")
            return .shell
        case "screen":
            try exactly(0, "options only (--out FILE)")
            return .screen(out: nil)
        case "completion":
            try exactly(1, "a shell name (bash)")
            guard arguments[0] == "bash" else { throw UsageError("completion knows bash only, not '\(arguments[0])'", command: name) }
            return .completion("bash")
        case "keys":
            return .keys(try KeysCommand.parse(arguments))
        case "contract":
            try exactly(0, "no arguments")
            return .contract
        case "help":
            return .help(arguments.first)
        case "version":
            return .version
        default:
            throw UsageError("unknown command '\(name)'")
        }
    }

    private static func parseEnum<T: RawRepresentable>(
        _ type: T.Type, _ text: String, _ option: String, _ choices: String, command: String? = nil
    ) throws(UsageError) -> T where T.RawValue == String {
        guard let value = T(rawValue: text) else { throw UsageError("\(option) takes \(choices), not '\(text)'", command: command) }
        return value
    }

    private static func parseSize(_ text: String) throws(UsageError) -> Size {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]), width > 0, height > 0,
              width.isFinite, height.isFinite else {
            throw UsageError("--screen takes WIDTHxHEIGHT in points, e.g. 768x1024, not '\(text)'")
        }
        return Size(width: min(width, height), height: max(width, height))
    }

    private static func parsePoint(_ text: String) throws(UsageError) -> Point {
        let parts = text.split(separator: ",")
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite else {
            throw UsageError("--at takes X,Y in points, e.g. 400,600, not '\(text)'", command: "tap")
        }
        return Point(x: x, y: y)
    }
}
