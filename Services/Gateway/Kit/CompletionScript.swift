import Domain

/// The bash completion script printed by `gateway completion bash`, made from the declarations
/// in `GatewayCommands`: their names, options, option values and arguments.
enum CompletionScript {
    static var bash: String {
        let commands = GatewayCommands.commands
        let global = GatewayCommands.globalOptions
        let allOptions = global + commands.flatMap(\.options)
        let takingValues = allOptions.filter { $0.value != nil }.flatMap(\.names)
        let valueCases = allOptions.filter { $0.value != nil }.map { option in
            "        \(option.names.joined(separator: "|"))) \(reply(option.completion)) return ;;"
        }
        let optionCases = commands.filter { !$0.options.isEmpty }.map { command in
            "        \(command.name)) options=\"$options \((command.options.flatMap(\.names)).joined(separator: " "))\" ;;"
        }
        let argumentCases = commands.filter { !$0.arguments.isEmpty }.map { command in
            let positions = command.arguments.enumerated().map { index, completion in
                let last = index == command.arguments.count - 1 && command.repeatsLastArgument
                return "\(last ? "*" : String(index))) \(reply(completion)) ;;"
            }
            return "        \(command.name)) case \"$count\" in \(positions.joined(separator: " ")) esac ;;"
        }
        return """
            # bash completion for gateway (Monster Bus): source <(gateway completion bash)
            _gateway() {
                local current previous command count options i
                current="${COMP_WORDS[COMP_CWORD]}"
                previous="${COMP_WORDS[COMP_CWORD-1]}"
                case "$previous" in
            \(valueCases.joined(separator: "\n"))
                esac
                command=""
                count=0
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case "${COMP_WORDS[i]}" in
                        \(takingValues.joined(separator: "|"))) ((i++)) ;;
                        -*) ;;
                        *) if [ -z "$command" ]; then command="${COMP_WORDS[i]}"; else ((count++)); fi ;;
                    esac
                done
                if [[ "$current" == -* ]]; then
                    options="\(global.flatMap(\.names).joined(separator: " "))"
                    case "$command" in
            \(optionCases.joined(separator: "\n"))
                    esac
                    COMPREPLY=($(compgen -W "$options" -- "$current"))
                    return
                fi
                if [ -z "$command" ]; then
                    COMPREPLY=($(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$current"))
                    return
                fi
                case "$command" in
            \(argumentCases.joined(separator: "\n"))
                esac
            }
            complete -F _gateway gateway

            """
    }

    /// The bash that offers what `completion` describes.
    private static func reply(_ completion: Completion) -> String {
        switch completion {
        case .none: ""
        case .words(let words): "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$current\"));"
        case .files: "COMPREPLY=($(compgen -f -- \"$current\"));"
        case .commands: "COMPREPLY=($(compgen -W \"\(GatewayCommands.commands.map(\.name).joined(separator: " "))\" -- \"$current\"));"
        }
    }
}
