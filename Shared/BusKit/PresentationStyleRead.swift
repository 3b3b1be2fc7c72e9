import Glibc

/// Where a presentation's `style` is in JSON written the way our encoders (and the bench's
/// Python peer) write it — compact, the header's values strings without escapes, numbers or
/// literals, the body's first key `presentation` and that object's first key `style` — found
/// with `memchr` in a fraction of what a structural scan costs: the bus keys each
/// presentation's topic by its style (`BusPolicy.deviceTopic`). `nil` for anything else —
/// whitespace, escapes, a container before the body, another order in the body — which the
/// bus then reads whole (`EnvelopePeek`). What it finds is what the decoders read: the first
/// top-level `body` (the decoders take a repeated key's first value), no string ending early
/// (none holds a `\`). Pure: bytes in, byte ranges out.
public struct PresentationStyleRead: Sendable, Equatable {
    /// Byte range of the presentation's `style` value (inside the quotes).
    public var style: Range<Int>
    /// Byte range of the envelope's first `replyTo` value, when it comes before the body.
    public var replyTo: Range<Int>?

    /// What opens the body, up to the style's value.
    private static let bodyOpening = Array(#"{"presentation":{"style":""#.utf8)

    /// The style and `replyTo` of `json`, when it is written as ours are.
    public init?(_ json: UnsafeRawBufferPointer) {
        guard let base = json.baseAddress?.assumingMemoryBound(to: UInt8.self), json.count > 1, base[0] == UInt8(ascii: "{") else { return nil }
        let count = json.count
        /// The end of the string whose inside starts at `start` (its closing quote), if no `\` is in it.
        func stringEnd(from start: Int) -> Int? {
            guard start < count, let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), count - start) else { return nil }
            let end = UnsafeRawPointer(quote) - UnsafeRawPointer(base)
            return memchr(base + start, Int32(UInt8(ascii: "\\")), end - start) == nil ? end : nil
        }
        func isKey(_ range: Range<Int>, _ name: StaticString) -> Bool {
            range.count == name.utf8CodeUnitCount && memcmp(base + range.lowerBound, name.utf8Start, range.count) == 0
        }
        var at = 1
        var replyTo: Range<Int>?
        while at < count, base[at] == UInt8(ascii: "\"") {
            guard let keyEnd = stringEnd(from: at + 1), keyEnd + 1 < count, base[keyEnd + 1] == UInt8(ascii: ":") else { return nil }
            let key = (at + 1)..<keyEnd
            at = keyEnd + 2
            if isKey(key, "body") {
                let opening = Self.bodyOpening
                guard count - at > opening.count, memcmp(base + at, opening, opening.count) == 0,
                      let styleEnd = stringEnd(from: at + opening.count) else { return nil }
                self.style = (at + opening.count)..<styleEnd
                self.replyTo = replyTo
                return
            }
            guard at < count else { return nil }
            if base[at] == UInt8(ascii: "\"") {
                guard let valueEnd = stringEnd(from: at + 1) else { return nil }
                if replyTo == nil, isKey(key, "replyTo") { replyTo = (at + 1)..<valueEnd }
                at = valueEnd + 1
            } else {
                // A number, `true`, `false` or `null`: letters, digits, `-`, `+`, `.`.
                let start = at
                while at < count, Self.isScalarByte(base[at]) { at += 1 }
                guard at > start else { return nil }
            }
            guard at < count, base[at] == UInt8(ascii: ",") else { return nil }
            at += 1
        }
        return nil
    }

    /// Whether `byte` may be part of a JSON number or literal.
    private static func isScalarByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "E")
    }
}
