import Wire

/// Writes SVG (XML) text: elements with attributes, text content, and the escaping that keeps it
/// well-formed whatever the strings hold.
struct SVGBuilder {
    /// An attribute: its name and value; a `nil` value is left out.
    typealias Attribute = (name: String, value: String?)

    /// The document so far.
    private(set) var output = ""
    /// How deep the next element is nested (for indentation).
    private var depth = 0
    /// Elements opened and not yet closed, innermost last.
    private var open: [String] = []

    /// A builder with the XML declaration written.
    init() {
        output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    }

    /// Opens `name` with `attributes`; close it with `close()`.
    mutating func open(_ name: String, _ attributes: [Attribute] = []) {
        line("<" + name + Self.attributes(attributes) + ">")
        open.append(name)
        depth += 1
    }

    /// Closes the innermost open element.
    mutating func close() {
        guard let name = open.popLast() else { return }
        depth -= 1
        line("</" + name + ">")
    }

    /// An element with no content: `<name … />`.
    mutating func empty(_ name: String, _ attributes: [Attribute]) {
        line("<" + name + Self.attributes(attributes) + "/>")
    }

    /// An element holding only `text`, escaped: `<name …>text</name>`.
    mutating func element(_ name: String, _ attributes: [Attribute], text: String) {
        line("<" + name + Self.attributes(attributes) + ">" + Self.escape(text) + "</" + name + ">")
    }

    /// The finished document: every element still open is closed.
    mutating func finish() -> String {
        while !open.isEmpty { close() }
        return output
    }

    private mutating func line(_ text: String) {
        output += String(repeating: "  ", count: depth) + text + "\n"
    }

    /// ` a="1" b="2"` for the attributes with a value, values escaped.
    static func attributes(_ attributes: [Attribute]) -> String {
        var text = ""
        for attribute in attributes {
            guard let value = attribute.value else { continue }
            text += " " + attribute.name + "=\"" + escape(value) + "\""
        }
        return text
    }

    /// `text` made safe for XML content and attribute values (`MarkupText.escaped`).
    static func escape(_ text: String) -> String { MarkupText.escaped(text) }

    /// `value` as an SVG number: at most two decimals, no `.0` on whole numbers, `0` when not finite.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            return String(Int(rounded))
        }
        return String(rounded)
    }
}
