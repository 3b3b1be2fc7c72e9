/// The ids of the messages one decision publishes, derived from the action's id, the deciding
/// service and the device's history (`DeviceHistory`) rather than drawn fresh: an owner and the
/// instance standing by for the device, deciding the same action the same way from the same
/// history, name the same messages, so the standby's acknowledgement lists what the owner
/// publishes (docs/scaling.md). They hold no `-`: no sender's sequence is read from them.
public struct DerivedIds: Sendable, Equatable {
    /// What every id of the decision is derived from.
    public let seed: UInt64

    /// The ids of `service`'s decision whose device's history, that decision folded in, is
    /// `history` (`DeviceHistory`, which holds the action's id).
    public init(service: String, history: UInt64) {
        seed = Self.fnv(history, text: service)
    }

    /// The id of the decision's message at `index`: 16 hex digits, a dot, the index.
    public func id(_ index: Int) -> String {
        var mixed = seed &+ UInt64(index) &* 0x9e37_79b9_7f4a_7c15
        // splitmix64's finaliser: ids of neighbouring indexes share no digits.
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        mixed ^= mixed >> 31
        let suffix = String(index)
        // Written straight into the string's storage: one allocation per id.
        return String(unsafeUninitializedCapacity: 17 + suffix.utf8.count) { buffer in
            for position in 0..<16 {
                let digit = UInt8(truncatingIfNeeded: mixed >> UInt64(60 - 4 * position)) & 0xf
                buffer[position] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
            }
            buffer[16] = UInt8(ascii: ".")
            var end = 17
            for byte in suffix.utf8 {
                buffer[end] = byte
                end += 1
            }
            return end
        }
    }

    /// FNV-1a (64 bits) of `text`'s UTF-8, from `hash`, then a zero byte (so that two texts
    /// never run together). Read from the string's storage: byte by byte through its view costs
    /// ten times as much.
    public static func fnv(_ hash: UInt64, text: String) -> UInt64 {
        func fold(_ hash: UInt64, _ bytes: some Sequence<UInt8>) -> UInt64 {
            var hash = hash
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash &* 0x0000_0100_0000_01b3
        }
        return text.utf8.withContiguousStorageIfAvailable { fold(hash, $0) } ?? fold(hash, text.utf8)
    }
}
