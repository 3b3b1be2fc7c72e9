import Domain
import Glibc
@testable import Wire
import Testing
import TestTiers

/// Envelope times and ids as they are written on every message's path (`Timestamp.format`,
/// `IDGenerator.next`), against the full path and an independent reference.
@Suite(.tags(.unit)) struct TimestampAndIDTests {
    /// `seconds` since 1970 as ISO 8601 UTC with `milliseconds` (clamped to 0–999), from `gmtime_r`
    /// and plain zero-padding: the text every writer must give.
    static func reference(_ seconds: Int, _ milliseconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let clamped = max(0, min(999, milliseconds))
        return pad(Int(parts.tm_year) + 1900, 4) + "-" + pad(Int(parts.tm_mon) + 1, 2) + "-" + pad(Int(parts.tm_mday), 2)
            + "T" + pad(Int(parts.tm_hour), 2) + ":" + pad(Int(parts.tm_min), 2) + ":" + pad(Int(parts.tm_sec), 2)
            + "." + pad(clamped, 3) + "Z"
    }

    static let seconds = [
        0, 1, 59, 86_399, 86_400, 951_782_400, 951_868_799, 1_796_008_479, 1_796_008_480, 4_102_444_800,
        253_402_300_799,  // 9999-12-31T23:59:59: the last second of four-digit years
        253_402_300_800,  // 10000-01-01: a longer year, written by the full path
        -1, -62_135_596_800,  // 1969-12-31T23:59:59 and 0001-01-01
    ]
    static let milliseconds = [0, 1, 7, 9, 10, 99, 100, 123, 500, 998, 999, -5, 1000, 1500]

    @Test func everyMillisecondIsWrittenAsTheReferenceDoes() {
        for second in Self.seconds {
            for millisecond in Self.milliseconds {
                #expect(Timestamp.format(seconds: second, milliseconds: millisecond) == Self.reference(second, millisecond), "\(second) \(millisecond)")
            }
            // A whole second's milliseconds in order, then again (each one's text kept, then replaced).
            for millisecond in 0..<1000 where Timestamp.format(seconds: second, milliseconds: millisecond) != Self.reference(second, millisecond) {
                Issue.record("\(second) \(millisecond)")
            }
        }
    }

    @Test func theWordsPathWritesWhatTheFullPathWrites() throws {
        for second in Self.seconds {
            let text = Timestamp.secondText(second)
            guard let words = Timestamp.words(ofSecond: text) else {
                #expect(text.utf8.count != 19, "\(text)")
                continue
            }
            for millisecond in 0..<1000 {
                let fast = Timestamp.text(words: words, milliseconds: millisecond)
                let full = Timestamp.text(second: text, milliseconds: millisecond)
                if fast != full { Issue.record("\(fast) != \(full)") }
                if fast.utf8.count != 24 { Issue.record("\(fast) is not 24 bytes") }
            }
        }
        #expect(Timestamp.words(ofSecond: "10000-01-01T00:00:00") == nil)
        #expect(Timestamp.words(ofSecond: "") == nil)
        // What the fast path writes parses back to its time.
        let text = try #require(Timestamp.words(ofSecond: Timestamp.secondText(1_796_008_479)).map { Timestamp.text(words: $0, milliseconds: 123) })
        #expect(Timestamp.parse(text) == 1_796_008_479.123)
    }

    @Test func nowIsTodaysTimeInTheFormat() throws {
        let before = Timestamp.wallClock()
        let text = Timestamp.now()
        let after = Timestamp.wallClock()
        let parsed = try #require(Timestamp.parse(text))
        #expect(parsed >= before.rounded(.down) - 0.001 && parsed <= after + 0.001)
        let whole = Int(parsed.rounded(.down))
        #expect(text == Self.reference(whole, Int(((parsed - Double(whole)) * 1000).rounded())))
    }

    @Test func aTimeParsesToTheSameValueWhateverWasParsedBefore() {
        // Texts of one second and of others, valid and not, in every order: each one's value is
        // what its digits say, whether the last text, the last second or nothing is remembered.
        let second = 1_796_008_479
        var cases: [(String, Double?)] = []
        for millisecond in [0, 1, 123, 999] {
            cases.append((Self.reference(second, millisecond), Double(second) + Double(millisecond) / 1000))
            cases.append((Self.reference(second + 1, millisecond), Double(second + 1) + Double(millisecond) / 1000))
        }
        cases += [
            ("2026-11-30T03:14:39Z", Double(second)), ("2026-11-30T03:14:39.12Z", Double(second) + 0.12),
            ("2026-11-30T03:14:39.123000+00:00", Double(second) + 0.123), ("2026-11-30T05:14:39.123+02:00", Double(second) + 0.123),
            ("2026-11-30T03:14:39.1234Z", Double(second) + 0.1234),
            ("2026-11-30T03:14:39.12xZ", nil), ("2026-11-30T03:14:39.123z", nil), ("2026-11-30T03:14:39.123+", nil),
            ("2026-11-30T03:14:39.", nil), ("2026-11-30T03:14:60.123Z", Double(second) + 21.123),
            ("2026-11-31T03:14:39.123Z", nil), ("2026-11-30T03:14:3x.123Z", nil), ("2025-02-29T00:00:00.000Z", nil),
        ]
        for _ in 0..<3 {
            for (index, (text, expected)) in cases.enumerated() {
                for (other, otherExpected) in [cases[(index + 1) % cases.count], cases[(index * 7 + 3) % cases.count], (text, expected)] {
                    #expect(Timestamp.parse(other) == otherExpected, "\(other)")
                    #expect(Timestamp.parse(text) == expected, "\(text) after \(other)")
                    #expect(Timestamp.parse(text) == expected, "\(text) again")
                }
            }
        }
    }

    @Test func idsArePrefixDashCounterInOrder() throws {
        let generator = IDGenerator()
        let ids = (0..<1200).map { _ in generator.next() }
        let prefix = String(ids[0].prefix(17))
        #expect(prefix.utf8.count == 17 && prefix.hasSuffix("-"))
        #expect(prefix.utf8.dropLast().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) })
        for (index, id) in ids.enumerated() where id != prefix + String(index + 1) {
            Issue.record("\(id) is not \(prefix)\(index + 1)")
        }
        #expect(Set(ids).count == ids.count)
        #expect(IDGenerator().next().prefix(17) != prefix)
    }

    @Test func aCountersDigitsAreCountedAsDecimalTextHasThem() {
        var values: [UInt64] = [0, 1, 9, UInt64.max, UInt64.max - 1]
        var power: UInt64 = 10
        while true {
            values += [power - 1, power, power + 1]
            let (next, overflow) = power.multipliedReportingOverflow(by: 10)
            if overflow { break }
            power = next
        }
        for value in values {
            #expect(IDGenerator.digitCount(value) == String(value).count, "\(value)")
        }
    }
}
