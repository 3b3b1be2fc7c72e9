/// The gateway's help texts: one entry per command, with examples.
public enum GatewayHelp {
    /// One command's help.
    public struct Entry: Sendable {
        /// The command word, as typed after `gateway` and in `help COMMAND`.
        public let name: String
        /// The synopsis after `gateway [OPTIONS]`, e.g. `rotate portrait|landscape`.
        public let usage: String
        /// What the command does, in a sentence or two (also its line in the overview).
        public let summary: String
        /// Whole command lines to copy, each starting with `gateway`.
        public let examples: [String]
    }

    /// Every command, in the order `--help` lists them.
    public static let commands: [Entry] = [
        Entry(name: "tap", usage: "tap ELEMENT | tap --at X,Y",
              summary: "Tap an element: add, icon, color, monster-list, photo, audio, cancel, red, green, blue, weapon, notes, blowgun, fire, ninja-star, smoke, sword, close, outside, or a visible roster row by the monster's name (Fire-Bot). A point is hit-tested like UIKit: an alert, the keyboard's window (the input view), then the app's window. A tap that changes nothing says why.",
              examples: ["gateway --device ipad tap add", "gateway --device iphone --json tap add", "gateway tap photo", "gateway tap --at 400,700"]),
        Entry(name: "rotate", usage: "rotate portrait|landscape",
              summary: "Rotate the device; a popover is hidden, then shown again at its anchor or dismissed.",
              examples: ["gateway rotate landscape"]),
        Entry(name: "resize", usage: "resize compact|regular|slide-over|split-view|full-screen",
              summary: "Move an iPad's window: Slide Over (compact, the default), the narrow side of Split View (compact), or full screen (regular).",
              examples: ["gateway resize compact", "gateway resize split-view"]),
        Entry(name: "select", usage: "select NAME",
              summary: "Pick a monster in the roster list; the detail pane shows it.",
              examples: ["gateway select Dog-Bot"]),
        Entry(name: "interaction", usage: "interaction ELEMENT on|off",
              summary: "Turn a view's user interaction on or off (a view with it off never receives taps).",
              examples: ["gateway interaction weapon off"]),
        Entry(name: "describe", usage: "describe",
              summary: "Everything on the device's screen: layout, presentation, input view, roster.",
              examples: ["gateway --json describe"]),
        Entry(name: "roster", usage: "roster | roster backup FILE",
              summary: "List the monsters with their descriptions, icons, weapons and name colours, the revision and the database id. `roster backup FILE`: roster writes a consistent copy of its database to FILE (an absolute path in roster's file system, not an existing file) while it runs; restore with `roster --restore FILE`.",
              examples: ["gateway roster", "gateway --json roster", "gateway roster backup /var/backups/roster-2026-11-30.db"]),
        Entry(name: "forget", usage: "forget DEVICE",
              summary: "Every service drops DEVICE's state now (as after DEVICE_IDLE_EXPIRY_SECONDS unused); each answers device.forgotten.",
              examples: ["gateway forget left"]),
        Entry(name: "status", usage: "status",
              summary: "Show each service the bus hears: version, pid, uptime, last heartbeat, counters. Exits 1 if one is missing or stale.",
              examples: ["gateway status"]),
        Entry(name: "ping", usage: "ping [SERVICE…]",
              summary: "Wait until the services (default: bus and all three) answer through the bus; exit 3 if one does not in time. A health check.",
              examples: ["gateway ping", "gateway --timeout 2 ping roster"]),
        Entry(name: "watch", usage: "watch [--type PREFIX]… [--count N]",
              summary: "Print what passes on the bus, human, --json or as CloudEvents 1.0 (--format human|json|cloudevents); --device filters by device, --type by message type prefix; --validate checks every message against the AsyncAPI contract and reports those that break it (exit 1 if any did); stops after N messages or on Ctrl-C. Messages it missed by falling behind are reported on stderr and to the bus.",
              examples: ["gateway watch", "gateway --json watch --type presentation. --type roster.", "gateway --device iphone watch --count 5",
                         "gateway watch --format cloudevents", "gateway watch --validate --type ''"]),
        Entry(name: "run", usage: "run FILE",
              summary: "Run a scenario: each line is what you would type after `gateway`; `expect TYPE [FIELD=VALUE…]` and `expect-no TYPE […]` check the messages the previous action caused (FIELD is a body key, dotted for nesting); # starts a comment. Stops at the first failed expectation with exit 1, naming FILE:LINE.",
              examples: ["gateway run Scenarios/plus-button-ipad.scenario", "gateway --json run my.scenario"]),
        Entry(name: "shell", usage: "shell",
              summary: "An interactive session: reads actions and expectations line by line (as in a scenario) until end of input or `exit`.",
              examples: ["gateway --device iphone shell", "echo 'tap add' | gateway shell"]),
        Entry(name: "screen", usage: "screen [--out FILE]",
              summary: "Draw the device's current screen as SVG (to standard output, or FILE; FILE.png converts to PNG where rsvg-convert or ImageMagick is installed).",
              examples: ["gateway --device ipad screen --out ipad.svg", "gateway --device iphone screen --out iphone.png"]),
        Entry(name: "completion", usage: "completion bash",
              summary: "Print the bash completion script.",
              examples: ["source <(gateway completion bash)"]),
        Entry(name: "keys", usage: "keys init DIR [--force | --if-missing]",
              summary: "Create CURVE certificates for the bus and every component (and monitor, role observer) in DIR, each with its role in its metadata, secrets mode 0600 in a folder of mode 0700, and authorise the components (DIR/authorized/); then run with BUS_KEYS_DIR=DIR. Symbolic links are refused. --if-missing: create only the certificates wholly missing; succeed, changing nothing, when they all exist.",
              examples: ["gateway keys init run/keys", "BUS_KEYS_DIR=run/keys gateway ping"]),
        Entry(name: "contract", usage: "contract",
              summary: "Print the AsyncAPI 3.0 document of the bus, generated from the message vocabulary (Scripts/contract writes it to docs/asyncapi.yaml).",
              examples: ["gateway contract > docs/asyncapi.yaml"]),
        Entry(name: "help", usage: "help [COMMAND]", summary: "Show help for the gateway or one command.", examples: ["gateway help tap"]),
        Entry(name: "version", usage: "version", summary: "Show the gateway's version.", examples: ["gateway version"]),
    ]

    /// The entry for `name`.
    public static func command(named name: String) -> Entry? {
        commands.first { $0.name == name }
    }

    /// The whole tool's help.
    public static var overview: String {
        let width = commands.map(\.usage.count).max() ?? 0
        let lines = commands.map { "  " + $0.usage.padding(to: width) + "  " + $0.summary }
        return """
            usage: gateway [OPTIONS] COMMAND [ARGS]

            Acts as a simulated device of Monster Bus: sends one action to the services through the
            bus, waits until every service has acknowledged everything it caused, and prints it.

            Commands:
            \(lines.joined(separator: "\n"))

            Options:
              --device ID        the simulated device (default ipad, or $GATEWAY_DEVICE)
              --profile NAME     its hardware: ipad, iphone, ipad-legacy (default: the device id, if it is one)
              --idiom pad|phone, --screen WxH, --os VERSION, --orientation portrait|landscape,
              --width regular|compact
                                 describe the hardware fully instead
              --json             print every message as one JSON envelope per line
              --trace            after an action, print the tree of what it caused: service, message,
                                 time and per-hop latency, from the messages' trace context
              --timeout SECONDS  how long to wait for the services (default 5)
              --embedded         run the real services inside this process over an in-memory bus
                                 (no bus, no services; a fresh roster each time): for scenarios
              -h, --help         this help, or a command's with COMMAND --help

            Exit status: 0 ok, 1 refused by a service, 2 usage error, 3 no answer in time.
            Environment: BUS_FRONTEND, BUS_BACKEND (default tcp://127.0.0.1:5555 and :5556).
            """
    }

    /// One command's help.
    public static func text(for entry: Entry) -> String {
        "usage: gateway [OPTIONS] \(entry.usage)\n\n\(entry.summary)\n\nExamples:\n"
            + entry.examples.map { "  " + $0 }.joined(separator: "\n")
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
