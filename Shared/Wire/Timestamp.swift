import Glibc
import Synchronization


/// Wall-clock timestamps for envelopes, formatted without Foundation's date formatters.
public enum Timestamp {
    /// The last time formatted: its second's text (`2026-11-30T03:14:39`) and, when that is 19
    /// bytes (years 0000 to 9999), the 24 bytes of a whole time in that second (`…:39.000Z`, as
    /// three words), reused within that second; and the whole text of its millisecond, reused
    /// within that millisecond (a message and its answers).
    private static let last = Mutex<(seconds: Int, milliseconds: Int, second: String, words: (UInt64, UInt64, UInt64)?, text: String)>(
        (-1, -1, "", nil, ""))

    /// Now, as `2026-11-30T03:14:39.123Z`.
    public static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return format(seconds: Int(spec.tv_sec), milliseconds: Int(spec.tv_nsec / 1_000_000))
    }

    /// `seconds` since 1970 plus `milliseconds`, in ISO 8601 UTC. The text of the second
    /// (`2026-11-30T03:14:39`) is kept from one call to the next, and so is the whole text of the
    /// millisecond: every envelope has a time, and most fall in the same second as the one
    /// before (an action's answers in the same millisecond). A new millisecond's text is the
    /// second's three words stored at once, then its three digits (`text(words:milliseconds:)`).
    public static func format(seconds: Int, milliseconds: Int) -> String {
        let milliseconds = max(0, min(999, milliseconds))
        return last.withLock { last in
            if last.seconds == seconds && last.milliseconds == milliseconds { return last.text }
            if last.seconds != seconds {
                last.second = secondText(seconds)
                last.words = words(ofSecond: last.second)
            }
            last.seconds = seconds
            last.milliseconds = milliseconds
            last.text = last.words.map { text(words: $0, milliseconds: milliseconds) } ?? text(second: last.second, milliseconds: milliseconds)
            return last.text
        }
    }

    /// The 24 bytes of `second` (`2026-11-30T03:14:39`) followed by `.000Z`, as three words; nil
    /// when `second` is not 19 bytes (a year before 0000 or after 9999).
    static func words(ofSecond second: String) -> (UInt64, UInt64, UInt64)? {
        guard second.utf8.count == 19 else { return nil }
        var words = (UInt64(0), UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &words) { bytes in
            for (index, byte) in (second + ".000Z").utf8.enumerated() { bytes[index] = byte }
        }
        return words
    }

    /// The time of `words` (`words(ofSecond:)`) with `milliseconds` (0–999) written in: one
    /// string of 24 bytes, stored as three words, then the three digits.
    static func text(words: (UInt64, UInt64, UInt64), milliseconds: Int) -> String {
        String(unsafeUninitializedCapacity: 24) { buffer in
            let start = buffer.baseAddress!
            UnsafeMutableRawPointer(start).storeBytes(of: words, as: (UInt64, UInt64, UInt64).self)
            start[20] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: milliseconds / 100)
            start[21] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: milliseconds / 10 % 10)
            start[22] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: milliseconds % 10)
            return 24
        }
    }

    /// `second` (`2026-11-30T03:14:39`, or a longer year's) followed by `.mmmZ`.
    static func text(second: String, milliseconds: Int) -> String {
        var second = second
        return second.withUTF8 { head in
            String(unsafeUninitializedCapacity: head.count + 5) { buffer in
                _ = buffer.initialize(from: head)
                buffer[head.count] = UInt8(ascii: ".")
                buffer[head.count + 1] = UInt8(ascii: "0") + UInt8(milliseconds / 100)
                buffer[head.count + 2] = UInt8(ascii: "0") + UInt8(milliseconds / 10 % 10)
                buffer[head.count + 3] = UInt8(ascii: "0") + UInt8(milliseconds % 10)
                buffer[head.count + 4] = UInt8(ascii: "Z")
                return head.count + 5
            }
        }
    }

    /// `seconds` since 1970 as `2026-11-30T03:14:39` (UTC).
    static func secondText(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return pad(Int(parts.tm_year) + 1900, 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-" + pad(Int(parts.tm_mday), 2)
            + "T" + pad(Int(parts.tm_hour), 2) + ":" + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2)
    }

    /// Now, in seconds since 1970 (wall clock).
    public static func wallClock() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Seconds since 1970 of an RFC 3339 timestamp in the form `format` writes
    /// (`2026-11-30T03:14:39.123Z`), or nil if it is not one. Also read: 0 to 9 fraction digits
    /// (`…:39Z`, `…:39.123456Z`) and a numeric offset instead of `Z` (`…:39.123+02:00`), as
    /// other clients (Python's `isoformat`) write them; the date must exist (no 30 February).
    public static func parse(_ text: String) -> Double? {
        if let parsed = text.utf8.withContiguousStorageIfAvailable({ parse(utf8: $0) }) { return parsed }
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// The second parsed last: the first 19 bytes of its text (`2026-11-30T03:14:39`, as three
    /// overlapping words) and its seconds since 1970 (before any offset). Most messages' times
    /// fall in the same second as the one before: only the fraction and the zone are read again.
    private static let lastSecond = Mutex<(key: (UInt64, UInt64, UInt64), seconds: Int)?>(nil)

    private static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count >= 20, bytes.count <= 35 else { return nil }
        let raw = UnsafeRawPointer(bytes.baseAddress!)
        let key = (
            raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
            raw.loadUnaligned(fromByteOffset: 11, as: UInt64.self))
        let known = lastSecond.withLock { last in last.flatMap { $0.key == key ? $0.seconds : nil } }
        let second: Int
        if let known {
            second = known
        } else {
            guard let parsed = wholeSecond(bytes) else { return nil }
            second = parsed
            lastSecond.withLock { $0 = (key, parsed) }
        }
        return fractionAndZone(bytes, second: second)
    }

    /// Seconds since 1970 of the date and time in the first 19 bytes (`2026-11-30T03:14:39`,
    /// read as UTC), or nil if they are not a date and time that exist.
    private static func wholeSecond(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        guard let year = digits(bytes, 0..<4), let month = digits(bytes, 5..<7), let day = digits(bytes, 8..<10), let hour = digits(bytes, 11..<13),
              let minute = digits(bytes, 14..<16), let second = digits(bytes, 17..<19),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 61
        else { return nil }
        return daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// `second` (of the first 19 bytes) with the fraction and the zone that follow them, or nil
    /// if they are not `.digits` (1 to 9) then `Z` or `+hh:mm`/`-hh:mm`.
    private static func fractionAndZone(_ bytes: UnsafeBufferPointer<UInt8>, second: Int) -> Double? {
        var index = 19
        var fraction = 0.0
        if bytes[index] == UInt8(ascii: ".") {
            let digitsStart = index + 1
            index = digitsStart
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > digitsStart, index - digitsStart <= 9, let fractionDigits = digits(bytes, digitsStart..<index) else { return nil }
            var scale = 1.0
            for _ in digitsStart..<index { scale *= 10 }
            fraction = Double(fractionDigits) / scale
        }
        let offset: Int
        if index == bytes.count - 1, bytes[index] == UInt8(ascii: "Z") {
            offset = 0
        } else if index == bytes.count - 6, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
                  bytes[index + 3] == UInt8(ascii: ":"), let hours = digits(bytes, index + 1..<index + 3),
                  let minutes = digits(bytes, index + 4..<index + 6), hours < 24, minutes < 60 {
            offset = (hours * 60 + minutes) * 60 * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        return Double(second - offset) + fraction
    }

    /// The number written in decimal digits in `range` of `bytes`, or nil if one is not a digit.
    @inline(__always)
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var value = 0
        for index in range {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Days in `month` (1–12) of `year`, in the proleptic Gregorian calendar.
    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a date (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Seconds on a monotonic clock, for measuring intervals.
    public static func monotonic() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
