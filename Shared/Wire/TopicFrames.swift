import Domain
import Glibc

/// The last few topic frames a sender wrote (`EnvelopeCodec.topicFrame`), each with the parts it
/// was written from: an action's answers go on its client's address, action after action, so
/// the next message's frame is most often one of them, taken (a retain) rather than allocated
/// and written again. A sender's own, on one thread, as its `JSONWriter`.
public struct TopicFrames {
    private struct Entry {
        var type: MessageType
        var key: String?
        var then: String?
        var frame: [UInt8]
    }

    /// How many frames are kept: a client's decision (presented, dismissed) and ack types, for a few clients.
    static let capacity = 8
    private var entries: [Entry] = []
    /// The entry the next new frame replaces once all are taken.
    private var oldest = 0

    /// Nothing kept yet.
    public init() {}

    /// The topic frame of `envelope`, the same bytes as `EnvelopeCodec.topicFrame(of:)`'s.
    mutating func frame(of envelope: Envelope) -> [UInt8] {
        let type = envelope.type
        let (key, then) = envelope.topicKeyParts
        for index in entries.indices where entries[index].type == type && entries[index].key == key && entries[index].then == then {
            return entries[index].frame
        }
        let entry = Entry(type: type, key: key, then: then, frame: EnvelopeCodec.topicFrame(type, key: key, then: then))
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            entries[oldest] = entry
            oldest = (oldest + 1) % Self.capacity
        }
        return entry.frame
    }
}
