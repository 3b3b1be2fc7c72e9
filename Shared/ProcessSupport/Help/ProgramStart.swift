import Domain

/// How the bus, the monitor and the services begin: tied to their starter (`ParentWatch`), then
/// the common `--help` and `--version` answered before anything else is read.
public enum ProgramStart {
    /// What the program does after its command line was read.
    public enum Next {
        /// Goes on, with the options parsed.
        case run([ParsedOption])
        /// Stops with this status: 0 after `--help` or `--version`, 2 for a bad command line
        /// (said on standard error).
        case exit(Int32)
    }

    /// Starts watching the starter and reads `arguments` against `--help`, `--version` and
    /// `options`: `--version` prints `name`, the version and `versionDetail`; `--help` prints `help`.
    public static func begin(
        name: String, options: [ProgramOption] = [], versionDetail: String = "",
        arguments: ArraySlice<String> = CommandLine.arguments.dropFirst(), help: () -> ProgramHelp
    ) -> Next {
        ParentWatch.start()
        let parsed: [ParsedOption]
        do {
            parsed = try OptionParser.parse(Array(arguments), [.help, .version] + options)
        } catch {
            Log.standardError("\(name): \(error)\n")
            return .exit(2)
        }
        if parsed.contains(where: { $0.name == ProgramOption.version.names[0] }) {
            print("\(name) \(MonsterBus.version)\(versionDetail)")
            return .exit(0)
        }
        if parsed.contains(where: { $0.name == ProgramOption.help.names[0] }) {
            print(help().text)
            return .exit(0)
        }
        MessageType.loadDeclarations()
        return .run(parsed)
    }
}
