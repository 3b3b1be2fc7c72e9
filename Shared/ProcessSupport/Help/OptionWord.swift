/// How every command line here reads an option: `--name=value` or `--name value`, the same in
/// the gateway's parser and in `OptionParser`.
public enum OptionWord {
    /// What is wrong with an option's value.
    public enum Problem: Error {
        /// The option takes a value (this placeholder) and none follows.
        case missing(String)
        /// The option takes no value and one was written after `=`.
        case unexpected
    }

    /// `word` split at its first `=` when it is a long option (`--name=value`).
    public static func split(_ word: String) -> (name: String, inline: String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// The value of an option that takes one (`placeholder`): `inline`, else the next of
    /// `arguments` (`index` moves on to it); nil for an option that takes none. `error` says
    /// a problem in the caller's own words.
    public static func value<Failure: Error>(
        placeholder: String?, inline: String?, in arguments: [String], at index: inout Int,
        _ error: (Problem) -> Failure
    ) throws(Failure) -> String? {
        guard let placeholder else {
            if inline != nil { throw error(.unexpected) }
            return nil
        }
        if let inline { return inline }
        index += 1
        guard index < arguments.count else { throw error(.missing(placeholder)) }
        return arguments[index]
    }
}
