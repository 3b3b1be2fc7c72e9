/// JSON string literals for text written by hand rather than through the codec: log lines, the
/// contract document, the monitor's pages.
public enum JSONStringLiteral {
    /// `text` as a JSON string literal, quotes included: `"`, `\`, control characters and DEL
    /// escaped. `forPages` also escapes `<`, U+2028 and U+2029, so the literal is safe inside an
    /// HTML `<script>`.
    public static func quoted(_ text: String, forPages: Bool = false) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f
                || (forPages && (scalar == "<" || scalar.value == 0x2028 || scalar.value == 0x2029)):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
