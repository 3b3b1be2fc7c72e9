/// An option of an executable's command line: its spellings, its value's name and its help.
public struct ProgramOption: Sendable, Equatable {
    /// Every spelling, the main one first (`--help`, `-h`).
    public let names: [String]
    /// The value it takes, as shown in the help (`FILE`); `nil` for a flag.
    public let value: String?
    /// What it does, in a line.
    public let help: String

    /// An option spelt `names`, taking `value` (or none), doing what `help` says.
    public init(_ names: String..., value: String? = nil, help: String) {
        self.names = names; self.value = value; self.help = help
    }

    /// `--help`: the help, then exit 0.
    public static let help = ProgramOption("--help", "-h", help: "this help")
    /// `--version`: the version, then exit 0.
    public static let version = ProgramOption("--version", help: "the version")

    /// How the help shows it: `--out FILE`, `-h, --help`.
    public var synopsis: String {
        names.sorted { $0.count < $1.count }.joined(separator: ", ") + (value.map { " " + $0 } ?? "")
    }
}

/// An option found on a command line, with its value.
public struct ParsedOption: Sendable, Equatable {
    /// The option's main spelling.
    public let name: String
    /// Its value, for an option that takes one.
    public let value: String?
}

/// Splits a command line of options only into the declared options, refusing anything else.
public enum OptionParser {
    /// The options of `arguments` (without the program name), in order; a message for the user
    /// for an unknown option, a missing value or any other word.
    public static func parse(_ arguments: [String], _ options: [ProgramOption]) throws(ConfigError) -> [ParsedOption] {
        var parsed: [ParsedOption] = []
        var index = 0
        while index < arguments.count {
            let (word, inline) = OptionWord.split(arguments[index])
            guard let option = options.first(where: { $0.names.contains(word) }) else {
                throw ConfigError(word.hasPrefix("-") ? "unknown option '\(word)' (try --help)" : "unknown argument '\(word)' (try --help)")
            }
            let value = try OptionWord.value(placeholder: option.value, inline: inline, in: arguments, at: &index) { problem in
                switch problem {
                case .missing(let placeholder): ConfigError("\(word) needs \(placeholder)")
                case .unexpected: ConfigError("\(word) takes no value")
                }
            }
            parsed.append(ParsedOption(name: option.names[0], value: value))
            index += 1
        }
        return parsed
    }
}

/// The `--help` text of an executable: usage, what it does, its options, the environment it
/// reads, and notes; every part comes from the declarations.
public struct ProgramHelp: Sendable {
    /// The synopsis after `usage: `, e.g. `roster [--reset | --restore FILE]`.
    public let usage: String
    /// What the program does, a few lines.
    public let summary: String
    /// Its options.
    public let options: [ProgramOption]
    /// The environment variables it reads.
    public let environment: [EnvironmentVariable]
    /// Anything else to say, after the lists (empty: nothing).
    public let notes: String

    /// A help text of these parts.
    public init(usage: String, summary: String, options: [ProgramOption], environment: [EnvironmentVariable], notes: String = "") {
        self.usage = usage; self.summary = summary; self.options = options; self.environment = environment; self.notes = notes
    }

    /// The text `--help` prints.
    public var text: String {
        var lines = ["usage: \(usage)", "", summary]
        if !options.isEmpty {
            lines += ["", "Options:"] + Self.table(options.map { ($0.synopsis, $0.help) })
        }
        if !environment.isEmpty {
            lines += ["", "Environment:"] + Self.table(environment.map { ($0.name, $0.helpLine) })
        }
        if !notes.isEmpty { lines += ["", notes] }
        return lines.joined(separator: "\n")
    }

    /// Two columns, the first padded to the longest entry (at most 24 characters wide).
    public static func table(_ rows: [(String, String)]) -> [String] {
        let width = min(24, rows.map(\.0.count).max() ?? 0)
        return rows.map { left, right in
            let padded = left.count >= width ? left : left + String(repeating: " ", count: width - left.count)
            return "  \(padded)  \(right)"
        }
    }
}
