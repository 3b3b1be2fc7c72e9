import Domain
import JSON

extension EnvelopeCodec {
    /// What a standby reads of an update (`Replica`): its device, its body, its state and the
    /// acknowledgement it carries, each frame as it came.
    public struct Update: Sendable {
        /// The body, its `snapshot` the state frame's bytes as they came (nil when empty).
        public var replica: Replica
        /// The device it is the state of; nil for an owner saying it has handed over everything.
        public var device: String?
        /// The owner's acknowledgement of the action (topic and JSON, to publish as they came),
        /// or no frame at all.
        public var acknowledgement: [[UInt8]]
    }

    /// Most frames a message of `type` has: an update five (`Replica`), any other two.
    public static func maximumFrames(of type: MessageType) -> Int { type == .replica ? 5 : 2 }

    /// Whether `frames` have the shape of a `shard.replica`: its topic, then 3 or 5 frames.
    static func isUpdate(_ frames: [[UInt8]]) -> Bool {
        (frames.count == 3 || frames.count == 5) && Topic.hasType(frames[0], .replica)
    }

    /// The update in `frames`, read no further than a standby needs: the envelope's `v`, `type`,
    /// `device` and `body`, in the order the codec writes them. The rest of its header (ids,
    /// time, trace) is for the monitor, which decodes it whole; the state is not read until the
    /// device is taken over (`Replica.snapshot`), and the acknowledgement is its owner's, read by
    /// its client. Its JSON is not checked for UTF-8: strings that are not are read repaired, and
    /// an owner so named is a member of no epoch.
    public static func update(_ frames: [[UInt8]]) throws(MessageError) -> Update {
        guard isUpdate(frames) else {
            throw MessageError(.badFrames, "an update is a shard.replica of 3 frames (topic, JSON, state) or 5 (and an acknowledgement); this has \(frames.count)")
        }
        return try frames[1].withUnsafeBufferPointer { bytes throws(MessageError) in
            try reading(bytes) { reader in
                var header = try HeaderReader(&reader)
                _ = try header.version()
                let type = try header.type()
                guard type == .replica else {
                    throw MessageError(.topicMismatch, "a shard.replica topic carries a message of type '\(type.rawValue)'")
                }
                let device = try header.optionalString("device")
                if let device {
                    try checkDevice(device.text)
                    if !device.printable { try Identifier.check(device.text, field: "device") }
                }
                try header.required("body")
                var replica: Replica
                do throws(JSONError) { replica = try header.reader.readObject(Replica.self) } catch { throw error.inside("body") }
                header.taken()
                replica.snapshot = frames[2].isEmpty ? nil : NestedValue(bytes: frames[2])
                return Update(replica: replica, device: device?.text, acknowledgement: Array(frames.dropFirst(3)))
            }
        }
    }
}
