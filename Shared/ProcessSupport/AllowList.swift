import Wire
import ZeroMQ

/// The CURVE public keys the bus admits, each with a name (its certificate's file name).
public struct AllowList: Sendable, Equatable {
    /// Each admitted key and its name.
    public private(set) var names: [CurveKey: String]

    /// Each admitted key's role, from its certificate's `role` metadata (`gateway` without one).
    public private(set) var roles: [CurveKey: Role]

    /// An allow-list of `names`, each with its role in `roles` (`gateway` when absent).
    public init(_ names: [CurveKey: String] = [:], roles: [CurveKey: Role] = [:]) {
        self.names = names
        self.roles = roles
    }

    /// The name of `key` if it is admitted.
    public func name(of key: CurveKey) -> String? { names[key] }

    /// The role of `key` if it is admitted.
    public func role(of key: CurveKey) -> Role? { names[key] == nil ? nil : roles[key] ?? .gateway }

    /// How many keys are admitted.
    public var count: Int { names.count }

    /// The allow-list in `folder`: every public certificate (`NAME.key`) there, named `NAME`.
    /// Other files are ignored; a secret certificate there is reported in `warnings` (it does
    /// not belong in a folder of public keys). An unreadable or invalid `.key` file is an error;
    /// a certificate whose `role` is not one of `Role`'s is left out, with a warning.
    public static func load(folder: String) throws(CertificateError) -> (list: AllowList, warnings: [String]) {
        let entries: [String]
        do {
            entries = try TextFile.list(folder)
        } catch {
            throw CertificateError(error.description)
        }
        var names: [CurveKey: String] = [:]
        var roles: [CurveKey: Role] = [:]
        var warnings: [String] = []
        for entry in entries where !entry.hasPrefix(".") {
            let path = CurveSettings.join(folder, entry)
            if entry.hasSuffix(".key_secret") {
                warnings.append("\(path) is a secret certificate: only public certificates (.key) belong in \(folder); it is ignored, and should be removed")
            } else if entry.hasSuffix(".key") {
                let certificate = try Certificate.load(path)
                let key = certificate.publicKey
                var role = Role.gateway
                if let text = certificate.metadata["role"] {
                    guard let known = Role(rawValue: text) else {
                        let choices = Role.allCases.map(\.rawValue).joined(separator: ", ")
                        warnings.append("\(path) has role \"\(text)\", which is not one of \(choices): it is not admitted")
                        continue
                    }
                    role = known
                } else if let component = Role(rawValue: String(entry.dropLast(4))), component.isComponent {
                    // Keys made before roles existed: say why that service's messages are refused.
                    warnings.append("\(path) has no role, so it is a gateway and \(component.rawValue)'s own messages will be refused: add `role = \"\(component.rawValue)\"` to its metadata, or re-create the keys with `gateway keys init --force`")
                }
                guard names[key] == nil else { continue }
                names[key] = String(entry.dropLast(4))
                roles[key] = role
            }
        }
        return (AllowList(names, roles: roles), warnings)
    }
}
