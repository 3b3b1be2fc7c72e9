/// The ids of the messages one decision publishes, derived from the action's id, the deciding
/// service and the device's history (`DeviceHistory`) rather than drawn fresh: an owner and the
/// instance standing by for the device, deciding the same action the same way from the same
/// history, name the same messages, so the standby's acknowledgement lists what the owner
/// publishes (docs/scaling.md). They hold no `-`: no sender's sequence is read from them.
public struct DerivedIds: Sendable, Equatable {
    /// What every id of the decision is derived from.
    public let seed: UInt64

    /// The ids of `service`'s decision of `action` on a device whose history is `history`.
    public init(action: String, service: String, history: UInt64) {
        var hash = Self.fnv(history, bytes: action.utf8)
        hash = Self.fnv(hash, bytes: service.utf8)
        seed = hash
    }

    /// The id of the decision's message at `index`: 16 hex digits, a dot, the index.
    public func id(_ index: Int) -> String {
        var mixed = seed &+ UInt64(index) &* 0x9e37_79b9_7f4a_7c15
        // splitmix64's finaliser: ids of neighbouring indexes share no digits.
        mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
        mixed ^= mixed >> 31
        let hex = String(mixed, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "." + String(index)
    }

    /// FNV-1a (64 bits) of `bytes`, from `hash`, then a zero byte (so that two texts never run together).
    public static func fnv(_ hash: UInt64, bytes: some Sequence<UInt8>) -> UInt64 {
        var hash = hash
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash &* 0x0000_0100_0000_01b3
    }
}
