import JSON
import Wire

/// Text made safe for HTML and JSON.
public enum HTML {
    /// `text` made safe for element text and attribute values (`MarkupText.escaped`).
    public static func escape(_ text: String) -> String { MarkupText.escaped(text) }

    /// `text` as a JSON string literal, quotes included; `<` is escaped too, so it is safe inside a page.
    public static func jsonString(_ text: String) -> String { JSONWriter.quoted(text, forPages: true) }

    /// A token made of `text`'s UTF-8 bytes in hex: a safe, unique id prefix for any device id.
    public static func token(_ text: String) -> String {
        text.utf8.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
