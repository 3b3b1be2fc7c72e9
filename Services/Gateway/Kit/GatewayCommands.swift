import Domain

/// The gateway's tappable elements by name, listed once for the help, the parser's messages,
/// the completion script and docs/gateway.md (checked by a test).
public enum GatewayElements {
    /// What `tap ELEMENT` takes (besides a visible monster's name).
    public static let tappable = [
        "add", "icon", "color", "monster-list", "photo", "audio", "cancel", "red", "green", "blue",
        "weapon", "notes", "blowgun", "fire", "ninja-star", "smoke", "sword", "close", "outside",
    ]
    /// The views `interaction ELEMENT on|off` is usually given (any tappable element or row works).
    public static let interactive = ["weapon", "icon", "notes", "add", "color", "monster-list"]
}

/// What the completion script offers for a value or an argument.
enum Completion: Sendable, Equatable {
    /// Nothing: the user types it.
    case none
    /// One of these words.
    case words([String])
    /// A file name.
    case files
    /// A command's name.
    case commands
}

/// A command line read so far: what the options have set, before the command is built.
struct CommandLineDraft {
    var device: String
    var deviceGiven = false
    var profileName: String?
    var overrides = ProfileOverrides()
    var json = false
    var timeout: Double
    var trace = false
    var embedded = false
    var helpRequested = false
    var versionRequested = false
    var tapPoint: Point?
    var watchTypes: [String] = []
    var watchCount: Int?
    var screenOut: String?
    var format: WatchFormat?
    var validate = false
    var force = false
    var ifMissing = false
    var live = false
    var jobs = 1
    var junit: String?

    /// The description options, applied over the chosen profile.
    struct ProfileOverrides {
        var idiom: Idiom?
        var screen: Size?
        var os: OSVersion?
        var orientation: Orientation?
        var widthClass: SizeClass?
        var isEmpty: Bool { idiom == nil && screen == nil && os == nil && orientation == nil && widthClass == nil }
    }
}

/// One option of the gateway, declared once: its spellings, value, help, completion and what it sets.
public struct GatewayOption: Sendable {
    /// Every spelling, the main one first.
    public let names: [String]
    /// The value's name in the help (`FILE`); `nil` for a flag.
    public let value: String?
    /// What it does, for the help.
    public let help: String
    let completion: Completion
    let apply: @Sendable (inout CommandLineDraft, String) throws(UsageError) -> Void

    init(
        _ names: String..., value: String? = nil, help: String, completion: Completion = .none,
        apply: @escaping @Sendable (inout CommandLineDraft, String) throws(UsageError) -> Void
    ) {
        self.names = names; self.value = value; self.help = help; self.completion = completion; self.apply = apply
    }

    /// How the help shows it: `-h, --help`, `--out FILE`.
    public var synopsis: String {
        names.sorted { $0.count < $1.count }.joined(separator: ", ") + (value.map { " " + $0 } ?? "")
    }
}

/// One gateway command, declared once: parsing, `help`, `help COMMAND` and the completion script
/// all come from its declaration.
public struct GatewayCommandDeclaration: Sendable {
    /// The command word, as typed after `gateway` and in `help COMMAND`.
    public let name: String
    /// The synopsis after `gateway [OPTIONS]`, e.g. `rotate portrait|landscape`.
    public let usage: String
    /// What the command does, in a sentence or two (also its line in the overview).
    public let summary: String
    /// The options only this command takes.
    public let options: [GatewayOption]
    /// Whole command lines to copy, each starting with `gateway`.
    public let examples: [String]
    /// What the completion offers for each argument, in order.
    let arguments: [Completion]
    /// Whether the last of `arguments` may be repeated.
    let repeatsLastArgument: Bool
    let build: @Sendable (CommandLineDraft, [String]) throws(UsageError) -> GatewayCommand

    init(
        _ name: String, usage: String, summary: String, options: [GatewayOption] = [], arguments: [Completion] = [],
        repeatsLastArgument: Bool = false, examples: [String],
        build: @escaping @Sendable (CommandLineDraft, [String]) throws(UsageError) -> GatewayCommand
    ) {
        self.name = name; self.usage = usage; self.summary = summary; self.options = options; self.arguments = arguments
        self.repeatsLastArgument = repeatsLastArgument; self.examples = examples; self.build = build
    }
}

/// The gateway's command line, declared: the global options and every command.
public enum GatewayCommands {
    /// Options every command takes, before or after the command word (as with git).
    public static let globalOptions: [GatewayOption] = [
        GatewayOption("--device", value: "ID", help: "the simulated device (default ipad, or $GATEWAY_DEVICE)",
                      completion: .words(["ipad", "iphone"])) { draft, text in
            draft.device = text
            draft.deviceGiven = true
        },
        GatewayOption("--profile", value: "NAME", help: "its hardware: \(DeviceProfile.builtIn.keys.sorted().joined(separator: ", ")) (default: the device id, if it is one)",
                      completion: .words(DeviceProfile.builtIn.keys.sorted())) { draft, text in draft.profileName = text },
        GatewayOption("--idiom", value: "pad|phone", help: "describe the hardware fully instead (with the four below)",
                      completion: .words(Idiom.allCases.map(\.rawValue))) { draft, text throws(UsageError) in
            draft.overrides.idiom = try parseEnum(Idiom.self, text, "--idiom", "pad or phone")
        },
        GatewayOption("--screen", value: "WxH", help: "its screen in points, e.g. 768x1024") { draft, text throws(UsageError) in
            draft.overrides.screen = try parseSize(text)
        },
        GatewayOption("--os", value: "VERSION", help: "its OS version, e.g. 17.0 or 3.1.3") { draft, text throws(UsageError) in
            guard let version = OSVersion(text) else { throw UsageError("--os takes a version such as 17.0 or 3.1.3, not '\(text)'") }
            draft.overrides.os = version
        },
        GatewayOption("--orientation", value: "portrait|landscape", help: "its orientation",
                      completion: .words(Orientation.allCases.map(\.rawValue))) { draft, text throws(UsageError) in
            draft.overrides.orientation = try parseEnum(Orientation.self, text, "--orientation", "portrait or landscape")
        },
        GatewayOption("--width", value: "regular|compact", help: "its horizontal size class",
                      completion: .words(SizeClass.allCases.map(\.rawValue))) { draft, text throws(UsageError) in
            draft.overrides.widthClass = try parseEnum(SizeClass.self, text, "--width", "regular or compact")
        },
        GatewayOption("--json", help: "print every message as one JSON envelope per line") { draft, _ in draft.json = true },
        GatewayOption("--trace", help: "after an action, print the tree of what it caused, with per-hop latencies") { draft, _ in
            draft.trace = true
        },
        GatewayOption("--timeout", value: "SECONDS", help: "how long to wait for the services (default 5, or $GATEWAY_TIMEOUT)") { draft, text throws(UsageError) in
            guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                throw UsageError("--timeout takes seconds between 0 and 3600, not '\(text)'")
            }
            draft.timeout = seconds
        },
        GatewayOption("--embedded", help: "run the real services inside this process over an in-memory bus (no bus, no services; a fresh roster each time): for scenarios") { draft, _ in draft.embedded = true },
        GatewayOption("--help", "-h", help: "this help, or a command's with COMMAND --help") { draft, _ in draft.helpRequested = true },
        GatewayOption("--version", help: "the gateway's version") { draft, _ in draft.versionRequested = true },
    ]

    /// Every command, in the order the help lists them.
    public static let commands: [GatewayCommandDeclaration] = [
        GatewayCommandDeclaration(
            "tap", usage: "tap ELEMENT | tap --at X,Y",
            summary: "Tap an element: \(GatewayElements.tappable.joined(separator: ", ")), or a visible roster row by the monster's name (Fire-Bot). A point is hit-tested like UIKit: an alert, the keyboard's window (the input view), then the app's window. A tap that changes nothing says why.",
            options: [
                GatewayOption("--at", value: "X,Y", help: "tap a point of the window, in points") { draft, text throws(UsageError) in
                    draft.tapPoint = try parsePoint(text)
                },
            ],
            arguments: [.words(GatewayElements.tappable)],
            examples: ["gateway --device ipad tap add", "gateway --device iphone --json tap add", "gateway tap photo", "gateway tap --at 400,700"]
        ) { draft, arguments throws(UsageError) in
            if let point = draft.tapPoint {
                try exactly(0, "--at X,Y", "tap", arguments)
                return .tap(Tap(point: point))
            }
            try exactly(1, "an element (\(GatewayElements.tappable.joined(separator: ", ")), or a monster's name)", "tap", arguments)
            return .tap(Tap(element: arguments[0]))
        },
        GatewayCommandDeclaration(
            "rotate", usage: "rotate portrait|landscape",
            summary: "Rotate the device; a popover is hidden, then shown again at its anchor or dismissed.",
            arguments: [.words(Orientation.allCases.map(\.rawValue))], examples: ["gateway rotate landscape"]
        ) { _, arguments throws(UsageError) in
            try exactly(1, "portrait or landscape", "rotate", arguments)
            return .rotate(try parseEnum(Orientation.self, arguments[0], "rotate", "portrait or landscape", command: "rotate"))
        },
        GatewayCommandDeclaration(
            "resize", usage: "resize compact|regular|slide-over|split-view|split-view-wide|split-view-half|full-screen",
            summary: "Move an iPad's window: Slide Over (compact, the default), the narrow side of Split View (1/3, compact), its wide side (2/3: regular in landscape, compact in portrait), half of it (landscape only, compact), or full screen (regular). Sizes: docs/multitasking.md.",
            arguments: [.words(SizeClass.allCases.map(\.rawValue) + WindowMode.allCases.map(\.rawValue))],
            examples: ["gateway resize compact", "gateway resize split-view", "gateway --orientation landscape resize split-view-wide"]
        ) { _, arguments throws(UsageError) in
            let choices = "compact, regular, slide-over, split-view, split-view-wide, split-view-half or full-screen"
            try exactly(1, choices, "resize", arguments)
            if let mode = WindowMode(rawValue: arguments[0]) { return .resizeMode(mode) }
            return .resize(try parseEnum(SizeClass.self, arguments[0], "resize", choices, command: "resize"))
        },
        withOneArgument(
            "select", usage: "select NAME", argument: "a monster's name, e.g. Dog-Bot", completion: .words(Catalogue.names),
            summary: "Pick a monster in the roster list; the detail pane shows it.",
            examples: ["gateway select Dog-Bot"], GatewayCommand.select),
        GatewayCommandDeclaration(
            "interaction", usage: "interaction ELEMENT on|off",
            summary: "Turn a view's user interaction on or off (a view with it off never receives taps).",
            arguments: [.words(GatewayElements.interactive), .words(["on", "off"])], examples: ["gateway interaction weapon off"]
        ) { _, arguments throws(UsageError) in
            try exactly(2, "an element and on or off", "interaction", arguments)
            guard let enabled = ["on": true, "off": false][arguments[1]] else {
                throw UsageError("interaction takes on or off, not '\(arguments[1])'", command: "interaction")
            }
            return .interaction(element: arguments[0], enabled: enabled)
        },
        withoutArguments(
            "describe", summary: "Everything on the device's screen: layout, presentation, input view, roster.",
            examples: ["gateway --json describe"], .describe),
        GatewayCommandDeclaration(
            "roster", usage: "roster | roster backup FILE",
            summary: "List the monsters with their descriptions, icons, weapons and name colours, the revision and the database id. `roster backup FILE`: roster writes a consistent copy of its database to FILE while it runs: a new file in roster's backup folder (ROSTER_BACKUP_DIR, default `backups` beside its database), named, or given as an absolute path in that folder; restore with `roster --restore FILE`.",
            arguments: [.words(["backup"]), .files],
            examples: ["gateway roster", "gateway --json roster", "gateway roster backup /var/backups/roster-2026-11-30.db"]
        ) { _, arguments throws(UsageError) in
            if arguments.first == "backup" {
                guard arguments.count == 2 else { throw UsageError("roster backup needs one FILE: an absolute path for the copy", command: "roster") }
                return .rosterBackup(arguments[1])
            }
            try exactly(0, "no arguments (or backup FILE)", "roster", arguments)
            return .roster
        },
        withOneArgument(
            "forget", usage: "forget DEVICE", argument: "a device id", completion: .none,
            summary: "Every service drops DEVICE's state now (as after DEVICE_IDLE_EXPIRY_SECONDS unused); each answers device.forgotten.",
            examples: ["gateway forget left"], GatewayCommand.forget),
        withoutArguments(
            "status", summary: "Show each service the bus hears: version, pid, uptime, last heartbeat, counters. Exits 1 if one is missing or stale.",
            examples: ["gateway status"], .status),
        GatewayCommandDeclaration(
            "ping", usage: "ping [SERVICE…]",
            summary: "Wait until the services (default: bus and all three) answer through the bus; exit 3 if one does not in time. A health check.",
            arguments: [.words(pingable)], repeatsLastArgument: true, examples: ["gateway ping", "gateway --timeout 2 ping roster"]
        ) { _, arguments throws(UsageError) in
            if let unknown = arguments.first(where: { !pingable.contains($0) }) {
                throw UsageError("ping takes service names (\(pingable.joined(separator: ", "))), not '\(unknown)'", command: "ping")
            }
            return .ping(arguments.isEmpty ? pingable : arguments)
        },
        GatewayCommandDeclaration(
            "watch", usage: "watch [--type PREFIX]… [--count N]",
            summary: "Print what passes on the bus, human, --json or as CloudEvents 1.0 (--format human|json|cloudevents); --device filters by device, --type by message type prefix; --validate checks every message against the AsyncAPI contract and reports those that break it (exit 1 if any did); stops after N messages or on Ctrl-C. Messages it missed by falling behind are reported on stderr and to the bus.",
            options: [
                GatewayOption("--type", value: "PREFIX", help: "only messages whose type starts with PREFIX (repeatable)") { draft, text in
                    draft.watchTypes.append(text)
                },
                GatewayOption("--count", value: "N", help: "stop after N messages") { draft, text throws(UsageError) in
                    guard let count = Int(text), count > 0 else { throw UsageError("--count takes a positive number, not '\(text)'", command: "watch") }
                    draft.watchCount = count
                },
                GatewayOption("--format", value: "human|json|cloudevents", help: "how to print each message",
                              completion: .words(WatchFormat.allCases.map(\.rawValue))) { draft, text throws(UsageError) in
                    guard let chosen = WatchFormat(rawValue: text) else {
                        throw UsageError("--format takes human, json or cloudevents, not '\(text)'", command: "watch")
                    }
                    draft.format = chosen
                },
                GatewayOption("--validate", help: "check every message against the AsyncAPI contract") { draft, _ in draft.validate = true },
            ],
            examples: ["gateway watch", "gateway --json watch --type presentation. --type roster.", "gateway --device iphone watch --count 5",
                       "gateway watch --format cloudevents", "gateway watch --validate --type ''"]
        ) { draft, arguments throws(UsageError) in
            try exactly(0, "options only (--type PREFIX, --count N)", "watch", arguments)
            return .watch(types: draft.watchTypes, count: draft.watchCount)
        },
        withOneArgument(
            "run", usage: "run FILE", argument: "a scenario file", completion: .files,
            summary: "Run a scenario: each line is what you would type after `gateway`; `expect TYPE [FIELD=VALUE…]` and `expect-no TYPE […]` check the messages the previous action caused (FIELD is a body key, dotted for nesting); # starts a comment. Stops at the first failed expectation with exit 1, naming FILE:LINE; an action that fails stops it with its own status (a refusal no expectation follows: 1).",
            examples: ["gateway run Scenarios/plus-button-ipad.scenario", "gateway --json run my.scenario"], GatewayCommand.run),
        GatewayCommandDeclaration(
            "test", usage: "test [PATH…] [--live] [--jobs N] [--junit FILE]",
            summary: "Run every .scenario file under the PATHs (default Scenarios/), in memory (each file with services of its own) or --live against the bus (each file with device ids of its own). A file goes on after a failed expectation; an expectation whose action could not be performed is skipped. Prints a line per file, the failures on standard error, then `N passed, M failed`; exit 0 when all pass, 1 when one fails, 2 for a line that is not a scenario's, 5 for a file that cannot be read (docs/testing.md).",
            options: [
                GatewayOption("--live", help: "against the bus and services running (BUS_FRONTEND, BUS_BACKEND), not in memory") { draft, _ in
                    draft.live = true
                },
                GatewayOption("--jobs", value: "N", help: "run N files at once (default 1)") { draft, text throws(UsageError) in
                    guard let jobs = Int(text), jobs > 0, jobs <= 64 else { throw UsageError("--jobs takes a number from 1 to 64, not '\(text)'", command: "test") }
                    draft.jobs = jobs
                },
                GatewayOption("--junit", value: "FILE", help: "also write the results to FILE as JUnit XML", completion: .files) { draft, text in
                    draft.junit = text
                },
            ],
            arguments: [.files], repeatsLastArgument: true,
            examples: ["gateway test", "gateway test --jobs 4 --junit report.xml Scenarios/ my-flows/", "gateway test --live Scenarios/rotation.scenario"]
        ) { draft, arguments in
            .test(ScenarioTestRequest(
                paths: arguments.isEmpty ? ScenarioTestRequest.defaultPaths : arguments, live: draft.live, jobs: draft.jobs, junit: draft.junit))
        },
        withoutArguments(
            "shell", summary: "An interactive session: reads actions and expectations line by line (as in a scenario) until end of input or `exit`.",
            examples: ["gateway --device iphone shell", "echo 'tap add' | gateway shell"], .shell),
        GatewayCommandDeclaration(
            "screen", usage: "screen [--out FILE]",
            summary: "Draw the device's current screen as SVG (to standard output, or FILE; FILE.png converts to PNG where rsvg-convert or ImageMagick is installed).",
            options: [
                GatewayOption("--out", value: "FILE", help: "write it to FILE (.svg, or .png)", completion: .files) { draft, text in
                    draft.screenOut = text
                },
            ],
            examples: ["gateway --device ipad screen --out ipad.svg", "gateway --device iphone screen --out iphone.png"]
        ) { draft, arguments throws(UsageError) in
            try exactly(0, "options only (--out FILE)", "screen", arguments)
            return .screen(out: draft.screenOut)
        },
        GatewayCommandDeclaration(
            "completion", usage: "completion bash", summary: "Print the bash completion script.",
            arguments: [.words(["bash"])], examples: ["source <(gateway completion bash)"]
        ) { _, arguments throws(UsageError) in
            try exactly(1, "a shell name (bash)", "completion", arguments)
            guard arguments[0] == "bash" else { throw UsageError("completion knows bash only, not '\(arguments[0])'", command: "completion") }
            return .completion("bash")
        },
        GatewayCommandDeclaration(
            "keys", usage: "keys init DIR [--force | --if-missing]",
            summary: "Create CURVE certificates for the bus and every component (and monitor, role observer) in DIR, each with its role in its metadata, secrets mode 0600 in a folder of mode 0700, and authorise the components (DIR/authorized/); then run with BUS_KEYS_DIR=DIR. Symbolic links are refused. --if-missing: create only the certificates wholly missing; succeed, changing nothing, when they all exist.",
            options: [
                GatewayOption("--force", help: "replace certificates that already exist") { draft, _ in draft.force = true },
                GatewayOption("--if-missing", help: "create only the certificates wholly missing") { draft, _ in draft.ifMissing = true },
            ],
            arguments: [.words(["init"]), .files],
            examples: ["gateway keys init run/keys", "BUS_KEYS_DIR=run/keys gateway ping"]
        ) { draft, arguments throws(UsageError) in
            .keys(try KeysCommand.parse(arguments, force: draft.force, ifMissing: draft.ifMissing))
        },
        withoutArguments(
            "contract", summary: "Print the AsyncAPI 3.0 document of the bus, generated from the message vocabulary (Scripts/contract writes it to docs/asyncapi.yaml).",
            examples: ["gateway contract > docs/asyncapi.yaml"], .contract),
        GatewayCommandDeclaration(
            "help", usage: "help [COMMAND]", summary: "Show help for the gateway or one command.",
            arguments: [.commands],
            examples: ["gateway help tap"]
        ) { _, arguments in .help(arguments.first) },
        GatewayCommandDeclaration("version", usage: "version", summary: "Show the gateway's version.", examples: ["gateway version"]) { _, _ in
            .version
        },
    ]

    /// The services `ping` knows, the bus first.
    static let pingable = [MonsterBus.Service.bus] + MonsterBus.Service.all

    /// The declaration of command `name`.
    public static func command(named name: String) -> GatewayCommandDeclaration? {
        commands.first { $0.name == name }
    }

    /// A command that takes no arguments and no options of its own: `usage` is its name.
    private static func withoutArguments(
        _ name: String, summary: String, examples: [String], _ command: GatewayCommand
    ) -> GatewayCommandDeclaration {
        GatewayCommandDeclaration(name, usage: name, summary: summary, examples: examples) { _, arguments throws(UsageError) in
            try exactly(0, "no arguments", name, arguments)
            return command
        }
    }

    /// A command that takes exactly one argument (what it is in `argument`, for the usage error),
    /// completed with `completion`, and no options of its own.
    private static func withOneArgument(
        _ name: String, usage: String, argument what: String, completion: Completion, summary: String, examples: [String],
        _ command: @escaping @Sendable (String) -> GatewayCommand
    ) -> GatewayCommandDeclaration {
        GatewayCommandDeclaration(name, usage: usage, summary: summary, arguments: [completion], examples: examples) { _, arguments throws(UsageError) in
            try exactly(1, what, name, arguments)
            return command(arguments[0])
        }
    }

    private static func exactly(_ count: Int, _ what: String, _ name: String, _ arguments: [String]) throws(UsageError) {
        guard arguments.count == count else {
            throw UsageError(arguments.count < count ? "\(name) needs \(what)" : "\(name) takes only \(what); unexpected '\(arguments[count])'", command: name)
        }
    }

    static func parseEnum<T: RawRepresentable>(
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
