import Foundation
import Glibc
import Sharding

/// Starting etcd members on ports chosen free, for `EtcdServer` and `EtcdCluster`. A free port is
/// not reserved: another process (an outgoing connection's local port, too) may bind it before
/// etcd does; then every member is started again on new ports.
enum EtcdStart {
    /// One member: its client URL and its process.
    typealias Member = (endpoint: String, process: ChildProcess)

    /// How many times the members are started on new ports when another process took one first.
    static let attempts = 5

    /// Starts the members with `launch` (each on ports it chooses) and returns them once each
    /// serves clients (over TLS with `tls`), within `timeout` seconds; `data`, their data, is
    /// removed before a retry.
    static func members(timeout: Double, data: String, tls: EtcdTLS? = nil, _ launch: () throws -> [Member]) throws -> [Member] {
        var attempt = 1
        while true {
            let members = try launch()
            let deadline = Date(timeIntervalSinceNow: timeout)
            var waiting = Array(members.indices)
            while !waiting.isEmpty, Date() < deadline, members.allSatisfy({ $0.process.isRunning }) {
                waiting.removeAll { (try? EtcdClient(endpoint: members[$0].endpoint, tls: tls, timeout: 1).list(prefix: "/")) != nil }
                if !waiting.isEmpty { usleep(50_000) }
            }
            if waiting.isEmpty { return members }
            stop(members.map(\.process))
            guard attempt < attempts, members.contains(where: { lostItsPort($0.process) }) else {
                throw ProcessError("etcd did not start: member(s) \(waiting) did not serve clients:\n\(members.map { $0.process.logTail() }.joined(separator: "\n"))")
            }
            try? FileManager.default.removeItem(atPath: data)
            attempt += 1
        }
    }

    /// Kills `members` with SIGKILL and waits until they are gone.
    static func stop(_ members: [ChildProcess]) {
        for member in members { member.signal(SIGKILL) }
        for member in members { _ = member.waitForExit(timeout: 5) }
    }

    /// Whether `member` stopped because a port it was to listen on was taken.
    private static func lostItsPort(_ member: ChildProcess) -> Bool {
        !member.isRunning && member.stderr.contains("address already in use")
    }
}
