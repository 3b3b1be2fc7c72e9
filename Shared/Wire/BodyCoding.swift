import Domain

extension Body {
    /// Encodes the payload alone into `container` under `key`.
    func encode<Key: CodingKey>(into container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        try container.encode(payload, forKey: key)
    }

    /// Decodes the payload of a message of `type` from `container` under `key`, as its
    /// declaration says.
    static func decode<Key: CodingKey>(
        _ type: MessageType, from container: KeyedDecodingContainer<Key>, forKey key: Key
    ) throws -> Body {
        try type.spec.decoder.decode(from: container, forKey: key)
    }
}
