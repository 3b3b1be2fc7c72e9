
/// MonsterKit's JSON coders for any `Codable` value, outside the envelope (etcd's requests and
/// answers, sharding's device snapshots): what Foundation's `JSONEncoder` and `JSONDecoder` do
/// (held to them by the codec's tests and fuzzer), without loading Foundation.
public enum JSONCoding {
    /// The JSON of `value`.
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        try FastJSONEncoder.encode(value)
    }

    /// The `T` in the JSON `bytes`; a `DecodingError` says what is wrong with them.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try FastJSONDecoder.decode(type, from: bytes)
    }
}
