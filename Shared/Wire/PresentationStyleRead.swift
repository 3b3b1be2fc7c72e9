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

    /// What opens the body after the header, up to the style's value.
    private static let bodyOpening = Array(#","body":{"presentation":{"style":""#.utf8)

    /// The style of `json`, when it is written as ours are: the first `,"body":{"presentation":
    /// {"style":"` after a header holding no `\`, `{` or `[` — so every quote in it opens or closes
    /// a string, and that comma ends a member of the top-level object: `body` is its first
    /// top-level key of that name, as the decoders read it (JSON that is not valid they refuse).
    public init?(_ json: UnsafeRawBufferPointer) {
        guard let base = json.baseAddress?.assumingMemoryBound(to: UInt8.self), json.count > 1, base[0] == UInt8(ascii: "{") else { return nil }
        let count = json.count
        let opening = Self.bodyOpening
        // The header holds no `{`: the first after the object's own is the body's, eight bytes
        // after the comma that opens it (found with one `memchr`, not a look at every comma).
        guard let brace = memchr(base + 1, Int32(UInt8(ascii: "{")), count - 1) else { return nil }
        let comma = UnsafeRawPointer(brace) - UnsafeRawPointer(base) - 8
        guard comma >= 1, count - comma > opening.count,
              opening.withUnsafeBytes({ memcmp(base + comma, $0.baseAddress!, $0.count) }) == 0 else { return nil }
        if memchr(base + 1, Int32(UInt8(ascii: "\\")), comma - 1) != nil { return nil }
        if memchr(base + 1, Int32(UInt8(ascii: "[")), comma - 1) != nil { return nil }
        let start = comma + opening.count
        guard let quote = memchr(base + start, Int32(UInt8(ascii: "\"")), count - start) else { return nil }
        let end = UnsafeRawPointer(quote) - UnsafeRawPointer(base)
        guard memchr(base + start, Int32(UInt8(ascii: "\\")), end - start) == nil else { return nil }
        style = start..<end
    }
}
