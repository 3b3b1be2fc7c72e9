
/// JSON string literals for text written by hand rather than through the codec: log lines, the
/// contract document, the monitor's pages.
public enum JSONStringLiteral {
    /// `text` as a JSON string literal, quotes included: `"`, `\`, control characters and DEL
    /// escaped. `forPages` also escapes `<`, U+2028 and U+2029, so the literal is safe inside an
    /// HTML `<script>`.
    public static func quoted(_ text: String, forPages: Bool = false) -> String {
        "\"" + text.replacingScalars { scalar in
            if let short = shortEscapes[scalar] { return short }
            let escaped = scalar.value < 0x20 || scalar.value == 0x7f
                || (forPages && (scalar == "<" || scalar.value == 0x2028 || scalar.value == 0x2029))
            guard escaped else { return nil }
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } + "\""
    }

    /// The text of the JSON string literal `literal` (quotes included), unescaped as the
    /// decoders read it; `nil` when it is not one. For the bus, which reads a value's bytes in
    /// place and needs the text only when it holds escapes.
    public static func text(ofLiteral literal: [UInt8]) -> String? {
        guard let document = try? JSONDocument(literal), document.nodes.first?.kind == .string else { return nil }
        return document.string(at: 0)
    }

    /// The characters JSON escapes with a backslash and a letter (or themselves).
    private static let shortEscapes: [Unicode.Scalar: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"]
}
