import Domain

/// The topic frames a sender wrote lately, by what each was made of (the type, the style of the
/// presentation it carried, the asking client's address; for a message to one instance, the
/// sender's service and that instance): an answer's frame is the same from message to message
/// while its client is, and is then that array again (a retain) rather than a new one. A
/// sender's own, used on its one thread.
public struct TopicMemo {
    private struct Entry {
        let type: MessageType
        let style: PresentationStyle?
        let service: String?
        /// The asking client's address, or the instance a message is for.
        let key: String
        let frame: [UInt8]
    }

    private var entries: [Entry] = []
    /// The entry the next frame replaces once all are taken.
    private var oldest = 0

    /// How many frames are kept: a service's answers to one client are a few types.
    static let capacity = 4

    /// Nothing kept yet.
    public init() {}

    /// The frame of `type` with `style` to the client `key` (from `service` to the instance `key`,
    /// for a message to one instance): the one kept, else `make()`'s, kept.
    mutating func frame(_ type: MessageType, style: PresentationStyle?, service: String? = nil, key: String, make: () -> [UInt8]) -> [UInt8] {
        let kept: [UInt8]? = entries.withUnsafeBufferPointer { entries in
            for index in entries.indices
            where entries[index].type == type && entries[index].style == style && entries[index].key == key && entries[index].service == service {
                return entries[index].frame
            }
            return nil
        }
        if let kept { return kept }
        let entry = Entry(type: type, style: style, service: service, key: key, frame: make())
        if entries.count < Self.capacity {
            entries.append(entry)
        } else {
            entries[oldest] = entry
            oldest = (oldest + 1) % Self.capacity
        }
        return entry.frame
    }
}
