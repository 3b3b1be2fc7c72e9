/// The JSON of etcd's v3 gateway that `EtcdClient` sends and reads (keys and values base64,
/// 64-bit integers as decimal strings), coded by the project's JSON coders.
enum EtcdMessages {
    /// A 64-bit integer as the gateway writes it: a decimal string (a number is read too).
    struct Int64Text: Codable {
        var value: Int64

        init(_ value: Int64) { self.value = value }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self), let value = Int64(text) {
                self.value = value
            } else {
                value = try container.decode(Int64.self)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(String(value))
        }
    }

    struct LeaseGrant: Encodable {
        var ttl: Int
        enum CodingKeys: String, CodingKey { case ttl = "TTL" }
    }

    struct LeaseID: Encodable {
        var id: Int64Text
        enum CodingKeys: String, CodingKey { case id = "ID" }
    }

    /// A lease's grant or keep-alive answer.
    struct Lease: Decodable {
        var id: Int64Text?
        var ttl: Int64Text?
        enum CodingKeys: String, CodingKey { case id = "ID", ttl = "TTL" }
    }

    /// A streamed call's answer (keep-alive): `{"result": …}`.
    struct Streamed<Result: Decodable>: Decodable {
        var result: Result?
    }

    struct Put: Encodable {
        var key: String
        var value: String
        var lease: Int64Text?
    }

    struct Key: Encodable {
        var key: String
    }

    struct Range: Encodable {
        var key: String
        var rangeEnd: String?
        enum CodingKeys: String, CodingKey { case key, rangeEnd = "range_end" }
    }

    struct KeyValue: Decodable {
        var key: String?
        var value: String?
        var createRevision: Int64Text?
        var modRevision: Int64Text?
        enum CodingKeys: String, CodingKey { case key, value, createRevision = "create_revision", modRevision = "mod_revision" }
    }

    struct RangeAnswer: Decodable {
        var kvs: [KeyValue]?
    }

    struct Compare: Encodable {
        var key: String
        var target: String
        var result = "EQUAL"
        var createRevision: Int64Text?
        var modRevision: Int64Text?
        enum CodingKeys: String, CodingKey { case key, target, result, createRevision = "create_revision", modRevision = "mod_revision" }
    }

    struct Operation: Encodable {
        var put: Put?
        var deleteRange: Key?
        enum CodingKeys: String, CodingKey { case put = "request_put", deleteRange = "request_delete_range" }
    }

    struct Transaction: Encodable {
        var compare: [Compare]
        var success: [Operation]
    }

    struct Header: Decodable {
        var revision: Int64Text?
    }

    struct TransactionAnswer: Decodable {
        var succeeded: Bool?
        var header: Header?
    }

    /// Whether an answer is an error (`{"error": …}`, as a streamed call reports one), and its message.
    struct ErrorProbe: Decodable {
        var failed: Bool
        var message: String?
        enum CodingKeys: String, CodingKey { case error }
        struct Body: Decodable { var message: String? }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            failed = container.contains(.error)
            message = (try? container.decode(Body.self, forKey: .error))?.message
        }
    }
}
