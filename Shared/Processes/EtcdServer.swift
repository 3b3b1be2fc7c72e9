import Foundation
import Glibc
import Sharding

/// A real single-member etcd (Debian's `etcd-server`; Scripts/test installs it) on free ports of
/// 127.0.0.1, stopped and its data removed when dropped.
public final class EtcdServer {
    /// Where clients reach it.
    public let endpoint: String
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
    /// until it serves clients.
    public init(folder: String? = nil, ports: () throws -> Int = freeTCPPort) throws {
        guard let binary = Self.binary else {
            throw ProcessError("etcd is not installed (apt-get install -y etcd-server; Scripts/test does it)")
        }
        ownsFolder = folder == nil
        let folder = try folder ?? makeTemporaryFolder("monster-bus-etcd-")
        let data = Self.dataFolder(folder)
        self.folder = folder
        self.data = data
        let started = try EtcdStart.members(timeout: 20, data: data) {
            let endpoint = "http://127.0.0.1:\(try ports())", peer = "http://127.0.0.1:\(try ports())"
            let child = try ChildProcess(
                name: "etcd", executable: binary,
                arguments: [
                    "--name", "monsterbus", "--data-dir", data, "--listen-client-urls", endpoint, "--advertise-client-urls", endpoint,
                    "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer, "--initial-cluster", "monsterbus=\(peer)",
                    "--log-level", "warn",
                ],
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
