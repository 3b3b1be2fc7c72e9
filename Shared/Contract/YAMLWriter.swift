import JSON
/// Writes a JSON tree as block-style YAML: every string double-quoted (JSON's escapes are
/// YAML's), keys bare where YAML 1.1 reads them back as the same string.
public enum YAMLWriter {
    /// `tree` as a YAML document, ending in a newline.
    public static func write(_ tree: JSONValue) -> String {
        var out = ""
        switch tree {
        case .object(let members) where !members.isEmpty: writeMembers(members, indent: 0, into: &out)
        case .array(let values) where !values.isEmpty: writeItems(values, indent: 0, into: &out)
        default: out = scalar(tree) + "\n"
        }
        return out
    }

    private static func writeMembers(_ members: [JSONMember], indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        for member in members {
            out += pad + key(member.key) + ":"
            writeValue(member.value, indent: indent, into: &out)
        }
    }

    private static func writeItems(_ values: [JSONValue], indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent)
        for value in values {
            switch value {
            case .object(let members) where !members.isEmpty:
                // The first member on the dash's line, the others aligned under it.
                var nested = ""
                writeMembers(members, indent: indent + 2, into: &nested)
                out += pad + "- " + nested.dropFirst(indent + 2)
            case .array(let inner) where !inner.isEmpty:
                out += pad + "-\n"
                writeItems(inner, indent: indent + 2, into: &out)
            default:
                out += pad + "- " + scalar(value) + "\n"
            }
        }
    }

    private static func writeValue(_ value: JSONValue, indent: Int, into out: inout String) {
        switch value {
        case .object(let members) where !members.isEmpty:
            out += "\n"
            writeMembers(members, indent: indent + 2, into: &out)
        case .array(let values) where !values.isEmpty:
            out += "\n"
            writeItems(values, indent: indent + 2, into: &out)
        default:
            out += " " + scalar(value) + "\n"
        }
    }

    private static func scalar(_ value: JSONValue) -> String {
        switch value {
        case .object: "{}"
        case .array: "[]"
        default: value.jsonText
        }
    }

    /// Words YAML 1.1 reads as booleans or null.
    private static let reserved: Set<String> = ["y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"]

    private static func key(_ text: String) -> String {
        let bare = !text.isEmpty && !reserved.contains(text.lowercased())
            && text.unicodeScalars.first.map { ("a"..."z").contains($0) || ("A"..."Z").contains($0) } == true
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) }
        return bare ? text : JSONWriter.quoted(text)
    }
}
