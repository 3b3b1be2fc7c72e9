import Domain
import Runtime

/// A device's history as one number: every decision of it folded in, its action's id and the
/// types of what it published (changed, unchanged or refused). An owner and its standby that
/// decided the same actions the same way hold the same history, and derive the same ids for a
/// decision's messages (`DerivedIds`); any difference shows as ids that never come.
enum DeviceHistory {
    /// `history` with the decision of `action` that published `effects` folded in.
    static func fold(_ history: UInt64, action: String, effects: [Effect]) -> UInt64 {
        var hash = DerivedIds.fnv(history, text: action)
        for effect in effects { hash = DerivedIds.fnv(hash, text: effect.body.type.rawValue) }
        return hash
    }

    /// `history` as an update carries it: 16 hex digits.
    static func text(_ history: UInt64) -> String {
        let hex = String(history, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The history an update's `text` says; nil when it is not 16 hex digits.
    static func parse(_ text: String?) -> UInt64? {
        guard let text, text.utf8.count == 16 else { return nil }
        return UInt64(text, radix: 16)
    }
}
