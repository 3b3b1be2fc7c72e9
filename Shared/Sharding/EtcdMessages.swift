import Domain

/// The JSON of etcd's v3 gateway that `EtcdClient` sends and reads (keys and values base64,
/// 64-bit integers as decimal strings), as wire forms (`FieldSet`) read and written by the
/// project's JSON reader and writer.
enum EtcdMessages {
    /// A 64-bit integer as the gateway writes it: a decimal string.
    struct Int64Text: FieldValue {
        var value: Int64

        init(_ value: Int64) { self.value = value }

        static func read<Reader: ValueReader>(from reader: inout Reader) throws(Reader.Failure) -> Int64Text {
            let text = try reader.readString()
            guard let value = Int64(text) else { throw reader.invalid("'\(text.prefix(30))' is not a 64-bit integer") }
            return Int64Text(value)
        }

        func write<Writer: ValueWriter>(to writer: inout Writer) throws(Writer.Failure) {
            writer.writeString(String(value))
        }
    }

    struct LeaseGrant: FieldSet {
        var ttl: Int
        static var placeholder: LeaseGrant { LeaseGrant(ttl: 0) }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("TTL", &ttl)
        }
    }

    struct LeaseID: FieldSet {
        var id: Int64Text
        static var placeholder: LeaseID { LeaseID(id: Int64Text(0)) }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("ID", &id)
        }
    }

    /// A lease's grant or keep-alive answer.
    struct Lease: FieldSet {
        var id: Int64Text?
        var ttl: Int64Text?
        static var placeholder: Lease { Lease() }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("ID", &id)
            try fields.field("TTL", &ttl)
        }
    }

    /// A streamed call's answer (keep-alive): `{"result": …}`.
    struct Streamed<Result: FieldSet>: FieldSet {
        var result: Result?
        static var placeholder: Streamed { Streamed() }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("result", &result)
        }
    }

    struct Put: FieldSet {
        var key: String
        var value: String
        var lease: Int64Text?
        static var placeholder: Put { Put(key: "", value: "") }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("key", &key)
            try fields.field("value", &value)
            try fields.field("lease", &lease)
        }
    }

    struct Key: FieldSet {
        var key: String
        static var placeholder: Key { Key(key: "") }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("key", &key)
        }
    }

    struct Range: FieldSet {
        var key: String
        var rangeEnd: String?
        static var placeholder: Range { Range(key: "") }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("key", &key)
            try fields.field("range_end", &rangeEnd)
        }
    }

    struct KeyValue: FieldSet {
        var key: String?
        var value: String?
        var createRevision: Int64Text?
        var modRevision: Int64Text?
        static var placeholder: KeyValue { KeyValue() }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("key", &key)
            try fields.field("value", &value)
            try fields.field("create_revision", &createRevision)
            try fields.field("mod_revision", &modRevision)
        }
    }

    struct RangeAnswer: FieldSet {
        var kvs: [KeyValue]?
        static var placeholder: RangeAnswer { RangeAnswer() }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("kvs", &kvs)
        }
    }

    struct Compare: FieldSet {
        var key: String
        var target: String
        var result = "EQUAL"
        var createRevision: Int64Text?
        var modRevision: Int64Text?
        static var placeholder: Compare { Compare(key: "", target: "") }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("key", &key)
            try fields.field("target", &target)
            try fields.field("result", &result)
            try fields.field("create_revision", &createRevision)
            try fields.field("mod_revision", &modRevision)
        }
    }

    struct Operation: FieldSet {
        var put: Put?
        var deleteRange: Key?
        static var placeholder: Operation { Operation() }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("request_put", &put)
            try fields.field("request_delete_range", &deleteRange)
        }
    }

    struct Transaction: FieldSet {
        var compare: [Compare]
        var success: [Operation]
        static var placeholder: Transaction { Transaction(compare: [], success: []) }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("compare", &compare)
            try fields.field("success", &success)
        }
    }

    struct Header: FieldSet {
        var revision: Int64Text?
        static var placeholder: Header { Header() }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("revision", &revision)
        }
    }

    struct TransactionAnswer: FieldSet {
        var succeeded: Bool?
        var header: Header?
        static var placeholder: TransactionAnswer { TransactionAnswer() }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("succeeded", &succeeded)
            try fields.field("header", &header)
        }
    }

    /// A request without fields (`/v3/maintenance/status`).
    struct Empty: FieldSet {
        static var placeholder: Empty { Empty() }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {}
    }

    /// The answering member's header (its id: an unsigned 64-bit number, kept as text).
    struct MemberHeader: FieldSet {
        var memberID: String?
        static var placeholder: MemberHeader { MemberHeader() }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("member_id", &memberID)
        }
    }

    /// A member's status: who it is and which member it follows as leader.
    struct Status: FieldSet {
        var header: MemberHeader?
        var leader: String?
        static var placeholder: Status { Status() }
        mutating func fields<Visitor: FieldVisitor>(_ fields: inout Visitor) throws(Visitor.Failure) {
            try fields.field("header", &header)
            try fields.field("leader", &leader)
        }
    }
}
