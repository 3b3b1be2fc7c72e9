import Wire

/// Rendezvous (highest random weight) hashing: which instance owns a device, computed alone by
/// every instance from the same member list. When an instance leaves, only its devices move.
/// The unit of ownership is the device's bucket (`Topic.bucket(ofDevice:)`): an instance
/// subscribes to the topics of the buckets it owns (`ShardTable`).
public enum Rendezvous {
    /// The member that owns `device`: the one with the highest `weight(member, device)`; nil
    /// when there is no member.
    public static func owner(of device: String, among members: [String]) -> String? {
        members.max { (weight($0, device), $1) < (weight($1, device), $0) }
    }

    /// FNV-1a (64 bits) of `member`, a NUL, and `device`, mixed by a final avalanche so that
    /// similar names spread evenly.
    public static func weight(_ member: String, _ device: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in member.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        hash = (hash ^ 0) &* 0x0000_0100_0000_01b3
        for byte in device.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        // splitmix64's finaliser
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }
}
