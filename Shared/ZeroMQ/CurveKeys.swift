import CZeroMQ

/// A CURVE key (Curve25519): 32 bytes, written as 40 characters of Z85.
public struct CurveKey: Sendable, Hashable {
    /// The key's length in bytes.
    public static let byteCount = 32
    /// The raw key, for socket options.
    public let bytes: [UInt8]

    /// The key made of `bytes`; `nil` unless there are exactly 32.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// The key written as `z85` (40 characters); `nil` if it is not one.
    public init?(z85: String) {
        guard z85.utf8.count == 40, let bytes = Z85.decode(z85) else { return nil }
        self.init(bytes: bytes)
    }

    /// The key as 40 characters of Z85.
    public var z85: String { Z85.encode(bytes)! }
}

/// A CURVE key pair: the public key, which may be shown and shared, and the secret key,
/// which is never printed (`description` leaves it out).
public struct CurveKeyPair: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What others hold to admit or reach this party.
    public let publicKey: CurveKey
    /// What proves this party's identity: never printed nor logged.
    public let secretKey: CurveKey

    /// A new random key pair (`zmq_curve_keypair`).
    public static func generate() throws -> CurveKeyPair {
        var publicText = [CChar](repeating: 0, count: 41)
        var secretText = [CChar](repeating: 0, count: 41)
        guard zmq_curve_keypair(&publicText, &secretText) == 0 else { throw ZMQError.last("zmq_curve_keypair") }
        guard let publicKey = CurveKey(z85: Self.text(publicText)),
              let secretKey = CurveKey(z85: Self.text(secretText)) else {
            throw ZMQError(code: EINVAL, text: "libzmq returned a malformed key", operation: "zmq_curve_keypair")
        }
        return CurveKeyPair(publicKey: publicKey, secretKey: secretKey)
    }

    /// The pair whose secret key is `secretKey`, its public key derived from it (`zmq_curve_public`).
    public init(secretKey: CurveKey) throws {
        self.init(publicKey: try Self.publicKey(of: secretKey), secretKey: secretKey)
    }

    private init(publicKey: CurveKey, secretKey: CurveKey) {
        self.publicKey = publicKey; self.secretKey = secretKey
    }

    /// The public key that goes with `secretKey`.
    public static func publicKey(of secretKey: CurveKey) throws -> CurveKey {
        var publicText = [CChar](repeating: 0, count: 41)
        guard zmq_curve_public(&publicText, secretKey.z85) == 0 else { throw ZMQError.last("zmq_curve_public") }
        guard let key = CurveKey(z85: Self.text(publicText)) else {
            throw ZMQError(code: EINVAL, text: "libzmq returned a malformed key", operation: "zmq_curve_public")
        }
        return key
    }

    /// The characters of a NUL-terminated C string (a Z85 key from libzmq).
    private static func text(_ buffer: [CChar]) -> String {
        let end = buffer.firstIndex(of: 0) ?? buffer.count
        return String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The pair for logs: the public key in Z85, the secret key shown as `<hidden>`.
    public var description: String { "CurveKeyPair(public: \(publicKey.z85), secret: <hidden>)" }
    /// Same as `description`, so `debugPrint` and `String(reflecting:)` hide the secret key too.
    public var debugDescription: String { description }
}
