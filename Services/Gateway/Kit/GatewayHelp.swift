import Domain
import ProcessSupport

/// The gateway's help texts, made from the declarations in `GatewayCommands`.
public enum GatewayHelp {
    /// The whole tool's help: every command, the global options, the exit statuses, the environment.
    public static var overview: String {
        let commands = GatewayCommands.commands
        let width = commands.map(\.usage.count).max() ?? 0
        let lines = commands.map { "  " + $0.usage.padding(to: width) + "  " + $0.summary }
        let options = ProgramHelp.table(GatewayCommands.globalOptions.map { ($0.synopsis, $0.help) })
        let statuses = ExitStatus.meanings.map { "  \($0.status)  \($0.meaning)" }
        let environment = ProgramHelp.table(EnvironmentVariable.gateway.map { ($0.name, $0.helpLine) })
        return """
            usage: gateway [OPTIONS] COMMAND [ARGS]

            Acts as a simulated device of Monster Bus: sends one action to the services through the
            bus, waits until every service has acknowledged everything it caused, and prints it.

            Commands:
            \(lines.joined(separator: "\n"))

            Options:
            \(options.joined(separator: "\n"))

            Exit status:
            \(statuses.joined(separator: "\n"))

            Environment:
            \(environment.joined(separator: "\n"))
            """
    }

    /// One command's help: its usage, what it does, its own options and examples.
    public static func text(for command: GatewayCommandDeclaration) -> String {
        var text = "usage: gateway [OPTIONS] \(command.usage)\n\n\(command.summary)\n"
        if !command.options.isEmpty {
            text += "\nOptions:\n" + ProgramHelp.table(command.options.map { ($0.synopsis, $0.help) }).joined(separator: "\n") + "\n"
        }
        return text + "\nExamples:\n" + command.examples.map { "  " + $0 }.joined(separator: "\n")
    }
}

extension String {
    /// The string padded with spaces to `width` characters.
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
