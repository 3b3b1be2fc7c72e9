import BusKit
import MonsterKit

/// `gateway keys init DIR [--force | --if-missing]`, parsed.
public struct KeysRequest: Sendable, Equatable {
    /// The folder to create the certificates in.
    public var folder: String
    /// Replace certificates that already exist.
    public var force: Bool
    /// Succeed without changing anything when every certificate is already there (for an init
    /// container that runs at every start).
    public var ifMissing: Bool

    /// A request to create certificates in `folder`.
    public init(folder: String, force: Bool = false, ifMissing: Bool = false) {
        self.folder = folder; self.force = force; self.ifMissing = ifMissing
    }
}

/// `gateway keys init DIR`: creates a CURVE certificate for the bus and for every component
/// (`NAME.key` public, `NAME.key_secret` secret, mode 0600) and authorises the components by
/// copying their public certificates into `DIR/authorized/`. Refuses to replace existing
/// certificates unless `--force`. Never prints a secret key.
enum KeysCommand {
    /// Every certificate made, the bus's first.
    static let components = [MonsterBus.Service.bus] + MonsterBus.Service.all + [MonsterBus.Service.gateway, "monitor"]

    /// The request in the words after `keys`.
    static func parse(_ words: [String]) throws(UsageError) -> KeysRequest {
        let force = words.contains("--force")
        let ifMissing = words.contains("--if-missing")
        guard !(force && ifMissing) else { throw UsageError("keys init takes --force or --if-missing, not both", command: "keys") }
        let rest = words.filter { $0 != "--force" && $0 != "--if-missing" }
        guard rest.first == "init" else {
            throw UsageError(rest.isEmpty ? "keys needs a subcommand: keys init DIR" : "unknown keys subcommand '\(rest[0])' (there is: init)", command: "keys")
        }
        guard rest.count == 2, !rest[1].isEmpty else {
            throw UsageError(rest.count < 2 ? "keys init needs a folder" : "keys init takes one folder; unexpected '\(rest[2])'", command: "keys")
        }
        return KeysRequest(folder: rest[1], force: force, ifMissing: ifMissing)
    }

    /// Creates the certificates; returns the exit status.
    static func run(_ request: KeysRequest) -> Int32 {
        let folder = request.folder
        let authorized = join(folder, "authorized")
        if !request.force {
            let existing = components.flatMap { name in
                [join(folder, name + ".key"), join(folder, name + ".key_secret")]
                    + (name == MonsterBus.Service.bus ? [] : [join(authorized, name + ".key")])
            }.filter(TextFile.exists)
            let expected = components.count * 3 - 1
            if request.ifMissing && existing.count == expected {
                print("\(folder) already has every certificate: nothing to do")
                return ExitStatus.ok
            }
            if !existing.isEmpty {
                let named = existing.prefix(2).map(lastComponent).joined(separator: ", ") + (existing.count > 2 ? " and \(existing.count - 2) more" : "")
                Log.standardError("gateway: \(folder) already has keys (\(named)); "
                    + "use --force to replace them (every process then needs its new certificate)\n")
                return ExitStatus.refused
            }
        }
        var lines: [String] = []
        do {
            try makeFolders(authorized)
            for name in components {
                // The role the bus enforces: the component's own, `observer` for the monitor.
                let role = Role(rawValue: name) ?? (name == "monitor" ? .observer : .gateway)
                let certificate = try Certificate.generate(metadata: ["name": name, "role": role.rawValue])
                var written = try certificate.save(in: folder, name: name, overwrite: request.force)
                if name == MonsterBus.Service.bus {
                    lines.append("  \(name.padding(to: 20)) public key \(certificate.publicKey.z85) (the server key)")
                } else {
                    written += try certificate.publicCertificate.save(in: authorized, name: name, overwrite: request.force)
                    lines.append("  \(name.padding(to: 20)) public key \(certificate.publicKey.z85), authorised")
                }
            }
        } catch {
            Log.standardError("gateway: \(error)\n")
            return ExitStatus.refused
        }
        print("""
            created CURVE certificates in \(folder) (NAME.key public, NAME.key_secret secret, mode 0600):
            \(lines.joined(separator: "\n"))
            Run every process with BUS_KEYS_DIR=\(folder) (or give each only its own NAME.key_secret with
            BUS_CLIENT_CERT, and bus.key). To admit another client, copy its public certificate (NAME.key)
            into \(authorized)/ and send the bus SIGHUP.
            """)
        return ExitStatus.ok
    }

    /// Creates `path` and the folders above it that are missing.
    private static func makeFolders(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            try TextFile.makeFolder(prefix)
            prefix += "/"
        }
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").suffix(2).joined(separator: "/")
    }
}
