import CZeroMQ

/// Z85, ZeroMQ's printable encoding of binary keys (RFC 32): 4 bytes become 5 characters.
public enum Z85 {
    /// The 85 characters Z85 uses, in order of value.
    public static let alphabet = Array(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#".utf8)
    private static let allowed = Set(alphabet)

    /// `bytes` as Z85 text; `nil` unless their count is a multiple of 4.
    public static func encode(_ bytes: [UInt8]) -> String? {
        guard bytes.count % 4 == 0 else { return nil }
        var text = [CChar](repeating: 0, count: bytes.count / 4 * 5 + 1)
        let encoded = bytes.withUnsafeBufferPointer { zmq_z85_encode(&text, $0.baseAddress, $0.count) }
        guard encoded != nil else { return nil }
        return String(decoding: text.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The bytes `text` encodes; `nil` unless it is Z85 (a multiple of 5 characters from
    /// `alphabet`, each group of 5 at most 2³²−1: libzmq refuses a group beyond it).
    public static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 5 == 0, characters.allSatisfy(allowed.contains) else { return nil }
        guard !characters.isEmpty else { return [] }
        var bytes = [UInt8](repeating: 0, count: characters.count / 5 * 4)
        let decoded = bytes.withUnsafeMutableBufferPointer { zmq_z85_decode($0.baseAddress, text) }
        return decoded == nil ? nil : bytes
    }
}
