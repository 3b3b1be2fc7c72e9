import ProcessSupport

/// What to check when nothing answers and keys may be the reason: a bus on CURVE silently
/// drops plaintext clients and clients whose key it does not admit.
enum CurveHint {
    /// The hint for a client configured by `config`.
    static func text(_ config: BusConfig) -> String {
        guard let curve = config.curve else { return " (If the bus uses CURVE keys, set BUS_KEYS_DIR.)" }
        return " (With CURVE: is \(curve.certificatePath)'s public key in the bus's authorized/ folder, and is the bus's key \(curve.serverKey.z85)?)"
    }
}
