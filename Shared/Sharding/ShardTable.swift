import Wire

/// Who owns each bucket and who stands by for it, for one member list: rendezvous hashing
/// (`Rendezvous`) computed once per list rather than for every message.
public struct ShardTable: Sendable, Equatable {
    /// The owner of each bucket (by index), nil with no member.
    private var owners: [String?]
    /// The instance standing by for each bucket: the one that owns it if its owner leaves (the
    /// second-highest weight); nil with fewer than two members.
    private var standbys: [String?]

    /// The table of `members`.
    public init(members: [String]) {
        owners = []
        standbys = []
        owners.reserveCapacity(Topic.bucketCount)
        standbys.reserveCapacity(Topic.bucketCount)
        for index in 0..<Topic.bucketCount {
            let bucket = Topic.bucketName(index)
            let owner = Rendezvous.owner(of: bucket, among: members)
            owners.append(owner)
            standbys.append(owner.flatMap { owner in Rendezvous.owner(of: bucket, among: members.filter { $0 != owner }) })
        }
    }

    /// The owner of bucket `index` (0..<256).
    public func owner(ofBucket index: Int) -> String? { owners[index] }

    /// The instance standing by for bucket `index`.
    public func standby(ofBucket index: Int) -> String? { standbys[index] }

    /// The bucket index of `device` (`Topic.bucketIndex`).
    public static func bucket(of device: String) -> Int {
        var device = device
        return device.withUTF8 { Topic.bucketIndex(ofDeviceBytes: $0) }
    }
}
