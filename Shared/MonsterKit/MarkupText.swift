/// Text made safe for XML and HTML: the gateway's SVG screens and the monitor's pages.
public enum MarkupText {
    /// `text` made safe for element content and attribute values: `& < > " '` become entities,
    /// tabs and line breaks character references (so attributes keep them), and characters XML 1.0
    /// forbids (other control characters, U+FFFE, U+FFFF) become U+FFFD. Valid in HTML too.
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
