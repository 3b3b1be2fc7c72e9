import Domain

/// Several messages on one topic as one ZeroMQ message: the topic frame, then each message's
/// JSON. Only `shard.replica` travels so: the updates an owner sends one standby in one pass of
/// its loop cost the bus and the standby one message, not one each (docs/scaling.md). Any
/// other message has two frames, and the codec refuses more.
public enum MessageBundle {
    /// Most messages in one bundle.
    public static let capacity = 32

    /// The one type that travels bundled.
    public static let type = MessageType.replica

    /// The messages of `frames` as `[topic, JSON]` each when they are a bundle (more than two
    /// frames, at most `capacity` messages, on a topic of `type`); nil otherwise.
    public static func messages(of frames: [[UInt8]]) -> [[[UInt8]]]? {
        guard frames.count > 2, frames.count <= capacity + 1, Topic.hasType(frames[0], type) else { return nil }
        return frames.dropFirst().map { [frames[0], $0] }
    }

    /// Collects messages for `flush`, one bundle per topic, in the order their topics first came.
    public struct Builder: Sendable {
        private var bundles: [[[UInt8]]] = []

        /// Nothing collected yet.
        public init() {}

        /// Whether a bundle holds `capacity` messages: it should go now.
        public private(set) var isFull = false

        /// Adds `frames` (`[topic, JSON]`) to its topic's bundle.
        public mutating func add(_ frames: [[UInt8]]) {
            if let index = bundles.firstIndex(where: { $0[0] == frames[0] }) {
                bundles[index].append(frames[1])
                isFull = isFull || bundles[index].count > MessageBundle.capacity
            } else {
                bundles.append(frames)
            }
        }

        /// The bundles collected (a lone message as its two frames), and nothing left.
        public mutating func flush() -> [[[UInt8]]] {
            defer { bundles = []; isFull = false }
            return bundles
        }
    }
}
