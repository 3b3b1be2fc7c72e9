import Domain
import Testing
import Wire
import TestTiers

/// Several updates for one standby travel as one message: its topic, then each one's JSON.
@Suite(.tags(.unit)) struct MessageBundleTests {
    let toPP2 = Array("shard.replica/presentation-policy/pp-2".utf8)

    @Test func aBundleIsItsMessagesEachWithTheTopic() {
        let bundle = [toPP2, [1], [2], [3]]
        #expect(MessageBundle.messages(of: bundle) == [[toPP2, [1]], [toPP2, [2]], [toPP2, [3]]])
    }

    /// A message alone, another type's frames, or more than the capacity is no bundle (the
    /// codec then refuses what is not two frames).
    @Test func onlyMoreThanTwoFramesOfUpdatesUpToTheCapacityAreABundle() {
        #expect(MessageBundle.messages(of: [toPP2, [1]]) == nil)
        #expect(MessageBundle.messages(of: [Array("device.tap".utf8), [1], [2]]) == nil)
        #expect(MessageBundle.messages(of: [Array("shard.replicas".utf8), [1], [2]]) == nil)
        let full = [toPP2] + Array(repeating: [UInt8(1)], count: MessageBundle.capacity)
        #expect(MessageBundle.messages(of: full)?.count == MessageBundle.capacity)
        #expect(MessageBundle.messages(of: full + [[1]]) == nil)
    }

    /// One bundle per key, in the order the keys first came; full when the capacity waits, in
    /// all the bundles; empty once flushed.
    @Test func theBuilderBundlesByKeyUntilFlushed() {
        var builder = MessageBundle.Builder<Int>()
        #expect(builder.isEmpty)
        builder.add(1, to: "pp-2")
        #expect(!builder.isEmpty)
        builder.add(2, to: "pp-3")
        builder.add(3, to: "pp-2")
        #expect(!builder.isFull && builder.count == 3)
        #expect(builder.flush() == [[1, 3], [2]])
        #expect(builder.isEmpty && builder.count == 0 && builder.flush().isEmpty)
        for index in 0..<MessageBundle.capacity {
            #expect(!builder.isFull)
            builder.add(index, to: index % 2 == 0 ? "pp-2" : "pp-3")
        }
        #expect(builder.isFull)
        #expect(builder.flush().map(\.count) == [MessageBundle.capacity / 2, MessageBundle.capacity / 2])
        #expect(!builder.isFull)
    }
}
