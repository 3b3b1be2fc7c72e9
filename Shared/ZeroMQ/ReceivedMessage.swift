/// A multipart message received into storage that is kept from message to message
/// (`ZMQSocket.receive(into:timeoutMilliseconds:)`): its frames' bytes one after another and
/// where each ends. Receiving into the same value again allocates nothing once it has held a
/// message as large (nor does it clear anything: the counts start again from zero).
public struct ReceivedMessage {
    /// The frames' bytes, one after another, in the first `used` bytes.
    private var bytes: [UInt8]
    /// Where each frame ends in `bytes`, in the first `count` entries.
    private var ends: [Int]
    /// The bytes of `bytes` in use.
    private var used = 0
    /// The number of frames.
    public private(set) var count = 0

    /// An empty message, with room for a bus message's two frames.
    public init() {
        bytes = [UInt8](repeating: 0, count: 1024)
        ends = [0, 0]
    }

    /// The bytes of frame `index`.
    public subscript(index: Int) -> ArraySlice<UInt8> {
        precondition(index < count)
        return bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
    }

    /// Calls `body` with the bytes of frame `index` in place.
    public func withFrame<Result>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        precondition(index < count)
        let start = index == 0 ? 0 : ends[index - 1]
        return try bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<ends[index]])) }
    }

    /// The frames as arrays of their own, to keep beyond the next receive.
    public var frames: [[UInt8]] { (0..<count).map { Array(self[$0]) } }

    /// Forgets the frames, keeping the storage.
    mutating func removeAll() {
        used = 0
        count = 0
    }

    /// Adds a frame with the bytes of `frame`, growing the storage only when it is too small.
    mutating func append(_ frame: UnsafeRawBufferPointer) {
        let end = used + frame.count
        if end > bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(end, 2 * bytes.count) - bytes.count)) }
        if !frame.isEmpty {
            bytes.withUnsafeMutableBytes { $0.baseAddress!.advanced(by: used).copyMemory(from: frame.baseAddress!, byteCount: frame.count) }
        }
        used = end
        if count < ends.count { ends[count] = end } else { ends.append(end) }
        count += 1
    }
}
