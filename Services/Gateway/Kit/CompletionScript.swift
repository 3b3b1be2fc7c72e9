import MonsterKit

/// The bash completion script printed by `gateway completion bash`.
enum CompletionScript {
    static let elements = [
        "add", "icon", "color", "monster-list", "photo", "audio", "cancel", "red", "green", "blue",
        "weapon", "notes", "blowgun", "fire", "ninja-star", "smoke", "sword", "close", "outside",
    ]

    static var bash: String {
        let commands = GatewayHelp.commands.map(\.name).joined(separator: " ")
        return """
            # bash completion for gateway (Monster Bus): source <(gateway completion bash)
            _gateway() {
                local current previous command i
                current="${COMP_WORDS[COMP_CWORD]}"
                previous="${COMP_WORDS[COMP_CWORD-1]}"
                case "$previous" in
                    --device) COMPREPLY=($(compgen -W "ipad iphone" -- "$current")); return ;;
                    --profile) COMPREPLY=($(compgen -W "ipad iphone ipad-legacy" -- "$current")); return ;;
                    --idiom) COMPREPLY=($(compgen -W "pad phone" -- "$current")); return ;;
                    --orientation) COMPREPLY=($(compgen -W "portrait landscape" -- "$current")); return ;;
                    --width) COMPREPLY=($(compgen -W "regular compact" -- "$current")); return ;;
                    --out) COMPREPLY=($(compgen -f -- "$current")); return ;;
                    --format) COMPREPLY=($(compgen -W "human json cloudevents" -- "$current")); return ;;
                    --timeout|--screen|--os|--at|--type|--count) return ;;
                esac
                command=""
                for ((i = 1; i < COMP_CWORD; i++)); do
                    case "${COMP_WORDS[i]}" in
                        --device|--profile|--timeout|--idiom|--screen|--os|--orientation|--width|--at|--type|--count|--out|--format) ((i++)) ;;
                        -*) ;;
                        *) command="${COMP_WORDS[i]}"; break ;;
                    esac
                done
                if [[ "$current" == -* ]]; then
                    COMPREPLY=($(compgen -W "--device --profile --json --timeout --idiom --screen --os --orientation --width --help --at --type --count --out --trace --format --validate" -- "$current"))
                    return
                fi
                case "$command" in
                    "") COMPREPLY=($(compgen -W "\(commands)" -- "$current")) ;;
                    tap) COMPREPLY=($(compgen -W "\(elements.joined(separator: " "))" -- "$current")) ;;
                    rotate) COMPREPLY=($(compgen -W "portrait landscape" -- "$current")) ;;
                    resize) COMPREPLY=($(compgen -W "compact regular slide-over split-view full-screen" -- "$current")) ;;
                    select) COMPREPLY=($(compgen -W "\(Catalogue.names.joined(separator: " "))" -- "$current")) ;;
                    interaction) COMPREPLY=($(compgen -W "weapon icon notes add color monster-list on off" -- "$current")) ;;
                    ping) COMPREPLY=($(compgen -W "bus presentation-policy roster input-handling" -- "$current")) ;;
                    run) COMPREPLY=($(compgen -f -- "$current")) ;;
                    roster) if [ "$previous" = backup ]; then COMPREPLY=($(compgen -f -- "$current")); else COMPREPLY=($(compgen -W "backup" -- "$current")); fi ;;
                    help) COMPREPLY=($(compgen -W "\(commands)" -- "$current")) ;;
                    completion) COMPREPLY=($(compgen -W "bash" -- "$current")) ;;
                esac
            }
            complete -F _gateway gateway

            """
    }
}
