
extension String {
    /// The text with each Unicode scalar `replacement` gives a string for replaced by that string,
    /// the others kept: the loop shared by the escapers (`JSONStringLiteral`, `MarkupText`).
    func replacingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let replaced = replacement(scalar) { out += replaced } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
