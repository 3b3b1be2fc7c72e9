
/// Tests on 8 bytes at a time, for scanning JSON text by words rather than byte by byte (the
/// "has a zero byte / a byte less than n" tricks of Bit Twiddling Hacks, exact as booleans).
public enum ByteWords {
    @usableFromInline static let ones: UInt64 = 0x0101_0101_0101_0101
    @usableFromInline static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether `word` holds a byte a JSON string cannot hold as it is: `"`, `\` or a control character.
    @inlinable @inline(__always) public static func hasSpecial(_ word: UInt64) -> Bool { specials(word) != 0 }

    /// The high bits of `word`'s bytes that are `"`, `\` or a control character — exact up to the
    /// first such byte (bytes after it may be flagged too): with the word read little-endian,
    /// `trailingZeroBitCount / 8` is the offset of the first one.
    @inlinable @inline(__always) public static func specials(_ word: UInt64) -> UInt64 {
        let quote = word ^ (ones &* UInt64(UInt8(ascii: "\""))), backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let control = (word &- (ones &* 0x20)) & ~word
        let isQuote = (quote &- ones) & ~quote, isBackslash = (backslash &- ones) & ~backslash
        return (control | isQuote | isBackslash) & highs
    }

    /// Whether `word` holds a control character (a byte below 0x20).
    @inlinable @inline(__always) public static func hasControl(_ word: UInt64) -> Bool { (word &- (ones &* 0x20)) & ~word & highs != 0 }

    /// Whether `word` holds a byte that is not ASCII.
    @inlinable @inline(__always) public static func hasNonASCII(_ word: UInt64) -> Bool { word & highs != 0 }

    /// Whether `word` holds DEL (0x7F) or a byte that is not ASCII.
    @inlinable @inline(__always) public static func hasDeleteOrNonASCII(_ word: UInt64) -> Bool { (word | (word &+ ones)) & highs != 0 }

    /// The index in `bytes`, from `start`, of the first word of 8 for which `flagged` holds, or
    /// of the last fewer than 8 bytes: the bytes before it are all clean, those after are to be
    /// looked at one by one.
    @inlinable @inline(__always) public static func skipClean(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ flagged: (UInt64) -> Bool
    ) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let raw = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= bytes.count, !flagged(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { index += 8 }
        return index
    }
}
