import Glibc

/// A fixed table from byte strings to values, looked up with bytes where they lie (a topic
/// frame's type part, a name inside a message's JSON) without making a string or an array of
/// them: the keys are kept by length, and one of the right length is compared with `memcmp`.
public struct ByteTable<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        let key: [UInt8]
        let value: Value
    }

    /// The entries of each length: those of length `n` are `entries[n]`.
    private let entries: [[Entry]]

    /// A table of `pairs` (a repeated key's first value is kept).
    public init(_ pairs: [(key: [UInt8], value: Value)]) {
        var entries = Array(repeating: [Entry](), count: 1 + (pairs.map(\.key.count).max() ?? 0))
        for pair in pairs where !entries[pair.key.count].contains(where: { $0.key == pair.key }) {
            entries[pair.key.count].append(Entry(key: pair.key, value: pair.value))
        }
        self.entries = entries
    }

    /// A table whose keys are the UTF-8 of `pairs`' strings.
    public init(_ pairs: [(key: String, value: Value)]) {
        self.init(pairs.map { (Array($0.key.utf8), $0.value) })
    }

    /// The value of `key`, if the table has it.
    @inline(__always) public func value(of key: UnsafeRawBufferPointer) -> Value? {
        guard key.count < entries.count else { return nil }
        return entries.withUnsafeBufferPointer { byLength in
            byLength[key.count].withUnsafeBufferPointer { candidates in
                for index in candidates.indices {
                    let found = candidates[index].key.withUnsafeBufferPointer { bytes in
                        key.count == 0 || memcmp(bytes.baseAddress!, key.baseAddress!, key.count) == 0
                    }
                    if found { return candidates[index].value }
                }
                return nil
            }
        }
    }

    /// The value of `key`'s bytes.
    public func value<Bytes: Collection<UInt8>>(of key: Bytes) -> Value? {
        Array(key).withUnsafeBytes { value(of: $0) }
    }

    /// The longest key's length.
    public var longestKey: Int { entries.count - 1 }
}
