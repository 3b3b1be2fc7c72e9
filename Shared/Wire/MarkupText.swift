
/// Text made safe for XML and HTML: the gateway's SVG screens and the monitor's pages.
public enum MarkupText {
    /// `text` made safe for element content and attribute values: `& < > " '` become entities,
    /// tabs and line breaks character references (so attributes keep them), and characters XML 1.0
    /// forbids (other control characters, U+FFFE, U+FFFF) become U+FFFD. Valid in HTML too.
    public static func escaped(_ text: String) -> String {
        text.replacingScalars { scalar in
            if let entity = entities[scalar] { return entity }
            return scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF ? "\u{FFFD}" : nil
        }
    }

    /// What replaces the characters markup gives a meaning to, and the white space attributes keep.
    private static let entities: [Unicode.Scalar: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;",
    ]
}
