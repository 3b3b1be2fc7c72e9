import Foundation
import Glibc
import Sharding

/// A real etcd cluster (Debian's `etcd-server`) of several members on free ports of 127.0.0.1,
/// started all at once — as Kubernetes starts the etcd pods in parallel: a member alone waits for
/// a majority, so none may wait for another to be ready first — each member logging in a
/// temporary folder and keeping its data in a temporary folder of its own (in memory when there
/// is one, as `EtcdServer` does); stopped and removed when dropped.
public final class EtcdCluster {
    /// Each member's client URL, in member order.
    public let endpoints: [String]
    /// The folder of the members' logs.
    public let folder: String
    private let data: String
    private let members: [ChildProcess]

    /// Starts `count` members and waits until every one serves clients (a leader is elected);
    /// their data on disk when `onDisk` (each write synced, as in production; the bench).
    public init(members count: Int = 3, onDisk: Bool = false) throws {
        guard let binary = EtcdServer.binary else {
            throw ProcessError("etcd is not installed (apt-get install -y etcd-server; Scripts/test does it)")
        }
        let folder = try makeTemporaryFolder("monster-bus-etcd-cluster-")
        let data = onDisk ? folder + "/data" : EtcdServer.dataFolder(folder)
        self.folder = folder
        self.data = data
        let started = try EtcdStart.members(timeout: 30, data: data) { try Self.launch(count, binary: binary, folder: folder, data: data) }
        endpoints = started.map(\.endpoint)
        members = started.map(\.process)
    }

    /// Starts `count` members on free ports.
    private static func launch(_ count: Int, binary: String, folder: String, data: String) throws -> [EtcdStart.Member] {
        var ports = Set<Int>()
        while ports.count < 2 * count { ports.insert(try freeTCPPort()) }
        let sorted = ports.sorted()
        let clients = sorted.prefix(count).map { "http://127.0.0.1:\($0)" }
        let peers = sorted.suffix(count).map { "http://127.0.0.1:\($0)" }
        let cluster = peers.enumerated().map { "m\($0.offset)=\($0.element)" }.joined(separator: ",")
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ETCD") }
        let members = try (0..<count).map { index in
            try ChildProcess(
                name: "etcd-m\(index)", executable: binary,
                arguments: [
                    "--name", "m\(index)", "--data-dir", "\(data)/m\(index)",
                    "--listen-client-urls", clients[index], "--advertise-client-urls", clients[index],
                    "--listen-peer-urls", peers[index], "--initial-advertise-peer-urls", peers[index],
                    "--initial-cluster", cluster, "--initial-cluster-state", "new",
                    "--initial-cluster-token", (folder as NSString).lastPathComponent, "--log-level", "warn",
                    // Elections timed for a LAN, as every etcd of several members here
                    // (docs/scaling.md#etcds-members).
                    "--heartbeat-interval", "30", "--election-timeout", "300", "--pre-vote",
                ],
                environment: environment, logPath: "\(folder)/m\(index).log")
        }
        return Array(zip(clients, members))
    }

    deinit {
        stopAll()
        try? FileManager.default.removeItem(atPath: data)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The index of the member that leads now, as the live members say; nil when they know none.
    public func leader() throws -> Int? {
        var ids: [String: Int] = [:]
        var leader: String?
        for (index, endpoint) in endpoints.enumerated() where members[index].isRunning {
            let status = try EtcdClient(endpoint: endpoint, timeout: 2).status()
            ids[status.member] = index
            leader = leader ?? status.leader
        }
        return leader.flatMap { ids[$0] }
    }

    /// Kills member `index` with SIGKILL (no goodbye to its peers) and waits until it is gone.
    public func kill(member index: Int) {
        members[index].signal(SIGKILL)
        _ = members[index].waitForExit(timeout: 10)
    }

    private func stopAll() { EtcdStart.stop(members) }
}
