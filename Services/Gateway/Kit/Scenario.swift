/// One line of a scenario (or of a shell session), parsed.
public struct ScenarioStep: Sendable, Equatable {
    /// Its line number in the file, from 1.
    public let line: Int
    /// What the line asks for: an action to send, or an expectation on its messages.
    public let kind: Kind

    /// What a line asks for.
    public enum Kind: Sendable, Equatable {
        /// Arguments for the gateway, as typed after `gateway`.
        case action([String])
        /// `expect` / `expect-no`: a check on the previous action's messages.
        case expectation(ScenarioExpectation)
    }
}

/// Reads scenario text: one action or expectation per line, `#` starts a comment, words are
/// split on spaces with single or double quotes grouping and `\` escaping.
public enum ScenarioParser {
    /// The steps of `text`, or the first line that cannot be read.
    public static func parse(_ text: String) throws(UsageError) -> [ScenarioStep] {
        var steps: [ScenarioStep] = []
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let words: [String]
            do {
                words = try split(String(line))
            } catch {
                throw UsageError("line \(number): \(error.description)")
            }
            guard let first = words.first else { continue }
            if first == "expect" || first == "expect-no" {
                steps.append(ScenarioStep(line: number, kind: .expectation(try expectation(words, line: number))))
            } else {
                steps.append(ScenarioStep(line: number, kind: .action(words)))
            }
        }
        return steps
    }

    private static func expectation(_ words: [String], line: Int) throws(UsageError) -> ScenarioExpectation {
        guard words.count >= 2 else { throw UsageError("line \(line): \(words[0]) needs a message type") }
        var fields: [ScenarioExpectation.Field] = []
        for word in words.dropFirst(2) {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw UsageError("line \(line): '\(word)' is not FIELD=VALUE")
            }
            fields.append(ScenarioExpectation.Field(path: String(word[..<equals]), value: String(word[word.index(after: equals)...])))
        }
        return ScenarioExpectation(negated: words[0] == "expect-no", type: words[1], fields: fields)
    }

    /// Splits `line` into words, honouring quotes, escapes and `#` comments.
    public static func split(_ line: String) throws(UsageError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
                inWord = true
            } else if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == "#" && !inWord {
                break
            } else if character == " " || character == "\t" || character == "\r" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if quote != nil { throw UsageError("a quote is not closed") }
        if inWord { words.append(current) }
        return words
    }
}
