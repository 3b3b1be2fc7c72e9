import CZeroMQ

extension ZMQSocket {
    /// Makes this socket a CURVE server with `keys`: peers must be CURVE clients that know
    /// its public key, and each is put to the ZAP handler (if one is bound) under `zapDomain`.
    /// Call before `bind`.
    public func makeCurveServer(_ keys: CurveKeyPair, zapDomain: String) throws {
        try Self.requireCurve()
        try set(.zapDomain, zapDomain)
        try set(.curveServer, Int32(1))
        try set(.curveSecretKey, keys.secretKey.bytes)
    }

    /// Makes this socket a CURVE client with `keys`, talking to the server whose public key is
    /// `serverKey`. Call before `connect`.
    public func makeCurveClient(_ keys: CurveKeyPair, serverKey: CurveKey) throws {
        try Self.requireCurve()
        try set(.curveServerKey, serverKey.bytes)
        try set(.curvePublicKey, keys.publicKey.bytes)
        try set(.curveSecretKey, keys.secretKey.bytes)
    }

    private static func requireCurve() throws {
        guard zmqHas("curve") else {
            throw ZMQError(code: ENOTSUP, text: "this libzmq was built without CURVE (libsodium)", operation: "CURVE")
        }
    }
}
