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

    /// Collects messages for `flush`, one bundle per key (the standby they are for), in the
    /// order their keys first came.
    public struct Builder<Message: Sendable>: Sendable {
        private var bundles: [(key: String, messages: [Message])] = []

        /// Nothing collected yet.
        public init() {}

        /// Whether nothing waits.
        public var isEmpty: Bool { bundles.isEmpty }

        /// How many messages wait, in all the bundles.
        public private(set) var count = 0

        /// Whether `capacity` messages wait: they should go now.
        public var isFull: Bool { count >= MessageBundle.capacity }

        /// Adds `message` to the bundle for `key`.
        public mutating func add(_ message: Message, to key: String) {
            count += 1
            if let index = bundles.firstIndex(where: { $0.key == key }) {
                bundles[index].messages.append(message)
            } else {
                bundles.append((key, [message]))
            }
        }

        /// The bundles collected, and nothing left.
        public mutating func flush() -> [[Message]] {
            defer { bundles = []; count = 0 }
            return bundles.map(\.messages)
        }
    }
}
