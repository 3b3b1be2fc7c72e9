import Glibc

/// The text a receiver read last for a header member that repeats from message to message — a
/// client's `replyTo`, which all its actions carry: the next one is taken from here (a retain)
/// when its bytes are the same, rather than made again (an allocation). A receiver's own, kept
/// from one message to the next (`EnvelopeCodec.receive(frames:recent:)`).
public struct TextMemo: Sendable {
    private var text: String?

    /// Nothing read yet.
    public init() {}

    /// The text of `bytes` (valid UTF-8, no escape): the one kept when it is the same bytes,
    /// else a new one, kept.
    mutating func text(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        if var kept = text, kept.withUTF8({ $0.count == bytes.count && (bytes.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0) }) {
            return kept
        }
        let made = String(decoding: bytes, as: UTF8.self)
        text = made
        return made
    }
}
