/// Rough text measurement for a proportional sans-serif font, without a font: enough to centre,
/// shrink, truncate and wrap short labels so that they stay inside their boxes.
enum TextMetrics {
    /// The estimated width of `text` at `size` points, bold or not.
    static func width(_ text: String, size: Double, bold: Bool = false) -> Double {
        var ems = 0.0
        for character in text {
            ems += advance(character)
        }
        return ems * size * (bold ? 1.07 : 1)
    }

    /// The font size, at most `size` and at least `minimum`, at which `text` fits in `width`.
    static func fittingSize(_ text: String, size: Double, minimum: Double, width: Double, bold: Bool = false) -> Double {
        let natural = self.width(text, size: size, bold: bold)
        guard natural > width, natural > 0 else { return size }
        // A hair smaller than exact, so rounding cannot make the text truncate after all.
        return max(minimum, size * width / natural * 0.999)
    }

    /// `text`, cut short with `…` if it is wider than `width` at `size`.
    static func truncated(_ text: String, size: Double, width: Double, bold: Bool = false) -> String {
        guard self.width(text, size: size, bold: bold) > width else { return text }
        var kept = ""
        for character in text {
            if self.width(kept + String(character) + "…", size: size, bold: bold) > width { break }
            kept.append(character)
        }
        return kept + "…"
    }

    /// `text` broken into lines no wider than `width` at `size`, at spaces where it can be.
    static func wrapped(_ text: String, size: Double, width: Double, bold: Bool = false) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = ""
            for word in paragraph.split(separator: " ") {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                if current.isEmpty || self.width(candidate, size: size, bold: bold) <= width {
                    current = candidate
                } else {
                    lines.append(current)
                    current = String(word)
                }
            }
            lines.append(current)
        }
        return lines.map { truncated($0, size: size, width: width, bold: bold) }
    }

    /// The baseline that centres one line of `size` points vertically on `midY`.
    static func baseline(centredOn midY: Double, size: Double) -> Double {
        midY + size * 0.35
    }

    /// A character's advance in ems, roughly (DejaVu Sans / SF-like proportions).
    private static func advance(_ character: Character) -> Double {
        switch character {
        case " ", "i", "j", "l", "I", "'", ".", ",", ":", ";", "!", "|": return 0.3
        case "f", "t", "r", "(", ")", "[", "]", "-": return 0.4
        case "m", "w", "M", "W": return 0.85
        case "…": return 1.0
        default:
            if character.isUppercase { return 0.68 }
            if character.isNumber { return 0.6 }
            if character.isLowercase { return 0.56 }
            return 0.65
        }
    }
}
