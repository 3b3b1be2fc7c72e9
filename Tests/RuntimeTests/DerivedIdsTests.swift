import Runtime
import Testing
import TestTiers

/// The ids an owner and its standby derive alike for one decision: the same from the same
/// history and service, different otherwise, and never read as a sender's own.
@Suite(.tags(.unit))
struct DerivedIdsTests {
    @Test func theSameHistoryAndServiceGiveTheSameIdsAndAnythingElseOthers() {
        let ids = DerivedIds(service: "presentation-policy", history: 42)
        #expect(ids == DerivedIds(service: "presentation-policy", history: 42))
        #expect(ids.id(0) == DerivedIds(service: "presentation-policy", history: 42).id(0))
        let others = [
            DerivedIds(service: "input-handling", history: 42).id(0), DerivedIds(service: "presentation-policy", history: 43).id(0), ids.id(1),
        ]
        #expect(!others.contains(ids.id(0)) && Set(others).count == 3)
    }

    /// Sixteen hex digits, a dot and the index: no `-`, which readers take for the end of a
    /// sender's prefix when they follow its sequence for gaps.
    @Test func anIdIsSixteenHexDigitsADotAndItsIndex() {
        let id = DerivedIds(service: "presentation-policy", history: 0).id(12)
        #expect(id.utf8.count == 19 && id.hasSuffix(".12") && !id.contains("-"))
        #expect(id.prefix(16).allSatisfy { "0123456789abcdef".contains($0) })
    }

    /// FNV-1a of the text's bytes then a zero byte: "ab" then "c" is not "a" then "bc".
    @Test func textsFoldedInTurnNeverRunTogether() {
        let basis: UInt64 = 0xcbf2_9ce4_8422_2325
        #expect(DerivedIds.fnv(DerivedIds.fnv(basis, text: "ab"), text: "c") != DerivedIds.fnv(DerivedIds.fnv(basis, text: "a"), text: "bc"))
        // The published FNV-1a of "a" is 0xaf63dc4c8601ec8c; a zero byte more multiplies it by the prime.
        #expect(DerivedIds.fnv(basis, text: "a") == 0xaf63_dc4c_8601_ec8c &* 0x0000_0100_0000_01b3)
    }
}
