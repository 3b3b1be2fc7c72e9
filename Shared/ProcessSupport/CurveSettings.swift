import Domain
import ZeroMQ

/// How a process secures its bus connection with CURVE, read from the environment:
/// `BUS_KEYS_DIR` (the keys folder), `BUS_CLIENT_CERT` (a client's own secret certificate,
/// default `$BUS_KEYS_DIR/NAME.key_secret`) and `BUS_SERVER_KEY` (the bus's public key in Z85,
/// default: read from `$BUS_KEYS_DIR/bus.key`). The bus always uses `$BUS_KEYS_DIR/bus.key_secret`
/// and admits the public certificates in `$BUS_KEYS_DIR/authorized/`.
public struct CurveSettings: Sendable {
    /// This process's own keys (for the bus, its server keys).
    public var keys: CurveKeyPair
    /// The bus's public key, which clients check the bus against.
    public var serverKey: CurveKey
    /// Where the own certificate was read, for logs.
    public var certificatePath: String
    /// `BUS_KEYS_DIR`, if set.
    public var keysDirectory: String?

    /// Settings from their parts.
    public init(keys: CurveKeyPair, serverKey: CurveKey, certificatePath: String, keysDirectory: String? = nil) {
        self.keys = keys; self.serverKey = serverKey
        self.certificatePath = certificatePath; self.keysDirectory = keysDirectory
    }

    /// The folder of public certificates the bus admits: `$BUS_KEYS_DIR/authorized`.
    public var authorizedDirectory: String? { keysDirectory.map { Self.join($0, "authorized") } }

    /// The settings in `environment` for `component` (`bus`, a service's name or `gateway`);
    /// `nil` when none of the variables is set (plaintext).
    public static func fromEnvironment(
        _ environment: [String: String], component: String?
    ) throws(ConfigError) -> CurveSettings? {
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let folder = variable("BUS_KEYS_DIR")
        if component == MonsterBus.Service.bus {
            guard let folder else { return nil }
            let path = join(folder, "bus.key_secret")
            let keys = try secretKeys(at: path, variable: "BUS_KEYS_DIR")
            return CurveSettings(keys: keys, serverKey: keys.publicKey, certificatePath: path, keysDirectory: folder)
        }
        let certificate = variable("BUS_CLIENT_CERT"), serverKeyText = variable("BUS_SERVER_KEY")
        guard folder != nil || certificate != nil || serverKeyText != nil else { return nil }
        let path: String
        if let certificate {
            path = certificate
        } else if let folder, let component {
            path = join(folder, component + ".key_secret")
        } else if folder != nil {
            throw ConfigError("BUS_KEYS_DIR is set but this program has no certificate name: set BUS_CLIENT_CERT to its .key_secret file")
        } else {
            throw ConfigError("BUS_SERVER_KEY is set but there is no client certificate: set BUS_KEYS_DIR or BUS_CLIENT_CERT")
        }
        let keys = try secretKeys(at: path, variable: certificate == nil ? "BUS_KEYS_DIR" : "BUS_CLIENT_CERT")
        let serverKey: CurveKey
        if let serverKeyText {
            guard let key = CurveKey(z85: serverKeyText) else {
                throw ConfigError("BUS_SERVER_KEY must be the bus's public key, 40 characters of Z85 (as in bus.key's public-key)")
            }
            serverKey = key
        } else if let folder {
            do {
                serverKey = try Certificate.load(join(folder, "bus.key")).publicKey
            } catch {
                throw ConfigError("BUS_KEYS_DIR: \(error) (the bus's public certificate; create keys with `gateway keys init DIR`)")
            }
        } else {
            throw ConfigError("BUS_CLIENT_CERT is set but the bus's public key is unknown: set BUS_SERVER_KEY or BUS_KEYS_DIR")
        }
        return CurveSettings(keys: keys, serverKey: serverKey, certificatePath: path, keysDirectory: folder)
    }

    /// The key pair in the secret certificate at `path`, named by `variable` in errors.
    private static func secretKeys(at path: String, variable: String) throws(ConfigError) -> CurveKeyPair {
        let certificate: Certificate
        do {
            certificate = try Certificate.load(path)
        } catch {
            throw ConfigError("\(variable): \(error) (create keys with `gateway keys init DIR`)")
        }
        guard let keys = certificate.keyPair else {
            throw ConfigError("\(variable): \(path) has no secret-key: it is a public certificate, a .key_secret file is needed")
        }
        return keys
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

extension BusConfig {
    /// How this process talks to the bus, for its log: CURVE with which keys, or plaintext.
    public var securitySummary: String {
        guard let curve else { return "plaintext: BUS_KEYS_DIR is not set, nothing is encrypted or authenticated" }
        return "CURVE: certificate \(curve.certificatePath) (public key \(curve.keys.publicKey.z85)), bus key \(curve.serverKey.z85)"
    }
}
