import Domain
import ProcessSupport

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
/// (`NAME.key` public, `NAME.key_secret` secret, mode 0600, in a folder of mode 0700), each with
/// its `name` and `role` in the `metadata` section, and authorises every component but the bus
/// by copying its public certificate into `DIR/authorized/`. Refuses (status 1) to replace
/// existing certificates unless `--force`, and symbolic links (the folder, `authorized/`, or a
/// file it would write) always; a folder or file it cannot write is status 5. Never prints a
/// secret key.
enum KeysCommand {
    /// Every certificate made, the bus's first, with the role the bus grants its holder.
    static let components: [(name: String, role: String)] =
        ([MonsterBus.Service.bus] + MonsterBus.Service.all + [MonsterBus.Service.gateway]).map { ($0, $0) }
        + [("monitor", "observer")]

    /// The request in the words after `keys` (its options already read).
    static func parse(_ rest: [String], force: Bool, ifMissing: Bool) throws(UsageError) -> KeysRequest {
        guard !(force && ifMissing) else { throw UsageError("keys init takes --force or --if-missing, not both", command: "keys") }
        guard rest.first == "init" else {
            throw UsageError(rest.isEmpty ? "keys needs a subcommand: keys init DIR" : "unknown keys subcommand '\(rest[0])' (there is: init)", command: "keys")
        }
        guard rest.count == 2, !rest[1].isEmpty else {
            throw UsageError(rest.count < 2 ? "keys init needs a folder" : "keys init takes one folder; unexpected '\(rest[2])'", command: "keys")
        }
        return KeysRequest(folder: rest[1], force: force, ifMissing: ifMissing)
    }

    /// The files of component `name`: its two certificates, and its authorised copy (not the bus).
    private static func files(of name: String, in folder: String) -> [String] {
        [join(folder, name + ".key"), join(folder, name + ".key_secret")]
            + (name == MonsterBus.Service.bus ? [] : [join(join(folder, "authorized"), name + ".key")])
    }

    /// Creates the certificates; returns the exit status.
    static func run(_ request: KeysRequest) -> Int32 {
        // Without trailing slashes: `link/` would resolve through a symbolic link `link`.
        var folder = request.folder
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        let authorized = join(folder, "authorized")
        let links = ([folder, authorized] + components.flatMap { files(of: $0.name, in: folder) })
            .filter { TextFile.kind($0) == .symbolicLink }
        guard links.isEmpty else {
            Log.standardError("gateway: \(links[0]) is a symbolic link: keys init never writes through one; remove it\n")
            return ExitStatus.refused
        }
        var toMake = components
        if !request.force {
            let existing = components.flatMap { files(of: $0.name, in: folder) }.filter { TextFile.kind($0) != .missing }
            let partial = components.filter { component in
                let present = files(of: component.name, in: folder).filter { TextFile.kind($0) != .missing }
                return !present.isEmpty && present.count < files(of: component.name, in: folder).count
            }
            toMake = components.filter { files(of: $0.name, in: folder).allSatisfy { TextFile.kind($0) == .missing } }
            if request.ifMissing && partial.isEmpty && toMake.isEmpty {
                print("\(folder) already has every certificate: nothing to do")
                return ExitStatus.ok
            }
            if !existing.isEmpty && !(request.ifMissing && partial.isEmpty) {
                Log.standardError("gateway: \(folder) already has keys (\(named(existing))); "
                    + "use --force to replace them (every process then needs its new certificate)\n")
                return ExitStatus.refused
            }
        }
        var lines: [String] = []
        do {
            try makeFolders(folder)
            try TextFile.makePrivateFolder(folder)
            try TextFile.makePrivateFolder(authorized)
            for (name, role) in toMake {
                let certificate = try Certificate.generate(metadata: ["name": name, "role": role])
                try certificate.save(in: folder, name: name, overwrite: request.force)
                let summary = "  \(name.padding(to: 20)) role \(role.padding(to: 20)) public key \(certificate.publicKey.z85)"
                if name == MonsterBus.Service.bus {
                    lines.append(summary + " (the server key)")
                } else {
                    try certificate.publicCertificate.save(in: authorized, name: name, overwrite: request.force)
                    lines.append(summary + ", authorised")
                }
            }
        } catch {
            // A folder or certificate that cannot be written.
            Log.standardError("gateway: \(error)\n")
            return ExitStatus.file
        }
        print("""
            created CURVE certificates in \(folder) (mode 0700; NAME.key public, NAME.key_secret secret, mode 0600):
            \(lines.joined(separator: "\n"))
            Give each process only its own NAME.key_secret (BUS_CLIENT_CERT) and bus.key (BUS_KEYS_DIR
            holding just those, or BUS_SERVER_KEY); only the bus needs bus.key_secret and authorized/.
            To admit another client, copy its public certificate (NAME.key) into \(authorized)/ and
            send the bus SIGHUP.
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

    /// The files that are in the way, for the refusal: the first two by name, then how many more.
    static func named(_ existing: [String]) -> String {
        existing.prefix(2).map(shortPath).joined(separator: ", ") + (existing.count > 2 ? " and \(existing.count - 2) more" : "")
    }

    /// The file's name and its folder's, e.g. `authorized/roster.key`.
    private static func shortPath(_ path: String) -> String {
        path.split(separator: "/").suffix(2).joined(separator: "/")
    }
}
