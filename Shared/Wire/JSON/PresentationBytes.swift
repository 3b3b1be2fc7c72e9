import Domain
import Synchronization

/// The JSON of the presentations written lately: the same popover is sent again and again (shown,
/// then dismissed, on every device of the same hardware and layout), so its ~600 bytes are
/// written once and copied after. One slot per cheap hash of a presentation's geometry; a
/// presentation is reused only when it is identical to the slot's — the same bytes, not only
/// equal values (`==` holds for `0.0` and `-0.0`, or for two spellings of the same Unicode
/// text, which JSON writes differently); a collision replaces the slot.
final class PresentationBytes: Sendable {
    /// The process's cache, for `DirectEncoding`.
    static let shared = PresentationBytes()

    /// A presentation and its JSON (a class: taking it out of its slot is one reference).
    private final class Entry: Sendable {
        let presentation: Presentation
        let json: [UInt8]

        init(_ presentation: Presentation, _ json: [UInt8]) { self.presentation = presentation; self.json = json }

        /// Whether `other` is written as `presentation` is (read in place: taken out of the
        /// entry, the presentation would be copied, a retain and a release of each of its parts).
        func isWritten(as other: Presentation) -> Bool { PresentationBytes.identical(presentation, other) }
    }

    private static let slotCount = 64
    private let slots = Mutex<[Entry?]>(Array(repeating: nil, count: slotCount))

    /// The JSON of `presentation`: the one written before, or what `write` writes (then kept).
    func json(of presentation: Presentation, _ write: () throws -> [UInt8]) rethrows -> [UInt8] {
        let slot = Self.slot(of: presentation)
        if let entry = slots.withLock({ $0[slot] }), entry.isWritten(as: presentation) { return entry.json }
        let json = try write()
        let entry = Entry(presentation, json)
        slots.withLock { $0[slot] = entry }
        return json
    }

    /// The slot of `p` (of `slotCount`, 64: the top 6 bits): its frame and first button's frame, mixed.
    private static func slot(of p: Presentation) -> Int {
        var mixed = (p.frame.x.bitPattern &* 31) ^ p.frame.y.bitPattern ^ (UInt64(p.buttons.count) &* 0x9E37_79B9_7F4A_7C15)
        if let first = p.buttonFrames.first { mixed ^= (first.y.bitPattern &* 17) ^ first.x.bitPattern }
        mixed ^= mixed >> 29
        return Int(truncatingIfNeeded: (mixed &* 0xBF58_476D_1CE4_E5B9) >> 58)
    }

    /// Whether `a` and `b` are written as the same bytes: every string byte for byte, every
    /// number bit for bit.
    fileprivate static func identical(_ a: Presentation, _ b: Presentation) -> Bool {
        a.style == b.style && a.content == b.content && a.cancelButtonIndex == b.cancelButtonIndex
            && a.permittedArrowDirections == b.permittedArrowDirections && a.arrowDirection == b.arrowDirection
            && same(a.frame, b.frame) && same(a.contentSize.width, b.contentSize.width) && same(a.contentSize.height, b.contentSize.height)
            && same(a.message, b.message) && same(a.buttons, b.buttons) && same(a.passthrough, b.passthrough)
            && (sameStorage(a.buttonFrames, b.buttonFrames)
                || a.buttonFrames.count == b.buttonFrames.count && zip(a.buttonFrames, b.buttonFrames).allSatisfy(same))
            && same(a.arrowTip, b.arrowTip) && same(a.anchor, b.anchor)
    }

    private static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern }

    private static func same(_ a: Rect, _ b: Rect) -> Bool {
        same(a.x, b.x) && same(a.y, b.y) && same(a.width, b.width) && same(a.height, b.height)
    }

    private static func same(_ a: Point?, _ b: Point?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return same(a.x, b.x) && same(a.y, b.y)
    }

    private static func same(_ a: Anchor?, _ b: Anchor?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.kind == b.kind && same(a.element, b.element) && same(a.rect, b.rect)
    }

    private static func same(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return same(a, b)
    }

    private static func same(_ a: [String], _ b: [String]) -> Bool {
        sameStorage(a, b) || a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
    }

    /// Whether `a` and `b` are one array (copies of the same value share their storage: the
    /// presentation of a popover shown again is the one kept).
    private static func sameStorage<Element>(_ a: [Element], _ b: [Element]) -> Bool {
        a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count } }
    }

    /// Whether `a` and `b` are the same UTF-8 bytes (the same storage, most often).
    private static func same(_ a: String, _ b: String) -> Bool {
        var (a, b) = (a, b)
        return a.withUTF8 { a in
            b.withUTF8 { b in a.count == b.count && (a.baseAddress == b.baseAddress || a.elementsEqual(b)) }
        }
    }
}
