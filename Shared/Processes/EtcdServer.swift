import Foundation
import Glibc
import Sharding

/// A real single-member etcd (Debian's `etcd-server`; Scripts/test installs it) on free ports of
/// 127.0.0.1, over TLS or not, stopped and its data removed when dropped.
public final class EtcdServer {
    /// Where clients reach it.
    public let endpoint: String
    /// With TLS: the files a client needs (the authority and the client certificate).
    public let clientTLS: EtcdTLS?
    /// The folder of its log.
    public let folder: String
    private let ownsFolder: Bool
    private let data: String
    private let child: ChildProcess

    /// The etcd executable, if it is installed.
    public static var binary: String? {
        ["/usr/bin/etcd", "/usr/local/bin/etcd"].first { access($0, X_OK) == 0 }
    }

    /// Starts etcd, logging in `folder` (default: a temporary folder of its own, removed when
    /// dropped), on ports `ports` chooses (free ones; a test's own to take one first), and waits
    /// until it serves clients. With `certificates`, a folder `Scripts/etcd-certs` made with a
    /// member `etcd`, its client and peer URLs are https and it requires client certificates.
    public init(folder: String? = nil, certificates: String? = nil, ports: () throws -> Int = freeTCPPort) throws {
        guard let binary = Self.binary else {
            throw ProcessError("etcd is not installed (apt-get install -y etcd-server; Scripts/test does it)")
        }
        ownsFolder = folder == nil
        let folder = try folder ?? makeTemporaryFolder("monster-bus-etcd-")
        let data = Self.dataFolder(folder)
        self.folder = folder
        self.data = data
        let scheme = certificates == nil ? "http" : "https"
        var tlsArguments: [String] = []
        if let certificates {
            let files = [("cert-file", "etcd.crt"), ("key-file", "etcd.key"), ("trusted-ca-file", "ca.crt")]
            for (flag, file) in files { tlsArguments += ["--\(flag)", "\(certificates)/\(file)", "--peer-\(flag)", "\(certificates)/\(file)"] }
            tlsArguments += ["--client-cert-auth", "--peer-client-cert-auth"]
        }
        clientTLS = certificates.map { EtcdTLS(authority: $0 + "/ca.crt", certificate: $0 + "/client.crt", key: $0 + "/client.key") }
        let started = try EtcdStart.members(timeout: 20, data: data, tls: clientTLS) {
            let endpoint = "\(scheme)://127.0.0.1:\(try ports())", peer = "\(scheme)://127.0.0.1:\(try ports())"
            let child = try ChildProcess(
                name: "etcd", executable: binary,
                arguments: [
                    "--name", "monsterbus", "--data-dir", data, "--listen-client-urls", endpoint, "--advertise-client-urls", endpoint,
                    "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer, "--initial-cluster", "monsterbus=\(peer)",
                    "--log-level", "warn",
                ] + tlsArguments,
                environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ETCD") }, logPath: folder + "/etcd.log")
            return [(endpoint, child)]
        }
        endpoint = started[0].endpoint
        child = started[0].process
    }

    deinit {
        child.signal(SIGKILL)
        _ = child.waitForExit(timeout: 5)
        try? FileManager.default.removeItem(atPath: data)
        if ownsFolder { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// Where etcd keeps its data: in memory (`/dev/shm`) when there is one, so that its fsyncs on
    /// a busy disk slow neither a test to a time-out nor the bench's row (they are about
    /// ownership, fencing and the services, not etcd's durability); else in `folder`.
    static func dataFolder(_ folder: String) -> String {
        guard access("/dev/shm", W_OK) == 0 else { return folder + "/data" }
        return "/dev/shm/" + (folder.split(separator: "/").last.map(String.init) ?? "monster-bus-etcd") + "-etcd-data"
    }
}
