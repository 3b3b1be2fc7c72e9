import Foundation

/// A real etcd (Debian's `etcd-server`; Scripts/test installs it) in a temporary data folder, on
/// free ports of 127.0.0.1, stopped and removed when dropped.
final class EtcdServer {
    let endpoint: String
    let folder: URL
    private let child: ChildProcess

    /// Starts etcd and waits until it serves clients.
    init() throws {
        guard let binary = ["/usr/bin/etcd", "/usr/local/bin/etcd"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw StackError("etcd is not installed (apt-get install -y etcd-server; Scripts/test does it)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("monster-bus-etcd-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clientPort = try freeTCPPort()
        let peerPort = try freeTCPPort()
        endpoint = "http://127.0.0.1:\(clientPort)"
        var environment = ProcessInfo.processInfo.environment
        environment = environment.filter { !$0.key.hasPrefix("ETCD") }
        child = try ChildProcess(
            name: "etcd", executable: URL(fileURLWithPath: binary),
            arguments: [
                "--name", "test", "--data-dir", Self.dataFolder(folder),
                "--listen-client-urls", endpoint, "--advertise-client-urls", endpoint,
                "--listen-peer-urls", "http://127.0.0.1:\(peerPort)",
                "--initial-advertise-peer-urls", "http://127.0.0.1:\(peerPort)",
                "--initial-cluster", "test=http://127.0.0.1:\(peerPort)",
                "--log-level", "warn",
            ],
            environment: environment, logFile: folder.appendingPathComponent("etcd.log"))
        let ready = child.waitForStderr(timeout: 20) { _ in
            Self.serves(self.endpoint) || self.child.process.isRunning == false
        }
        guard ready, child.process.isRunning else {
            throw StackError("etcd did not start: \(child.stderr)")
        }
    }

    deinit {
        child.signal(SIGKILL)
        _ = child.waitForExit(timeout: 5)
        try? FileManager.default.removeItem(atPath: Self.dataFolder(folder))
        try? FileManager.default.removeItem(at: folder)
    }

    /// Where etcd keeps its data: in memory (`/dev/shm`) when there is one, so that a test's
    /// etcd is not slowed to a time-out by fsyncs on a busy disk (these tests are about
    /// ownership and fencing, not etcd's durability); else in `folder`.
    static func dataFolder(_ folder: URL) -> String {
        let memory = URL(fileURLWithPath: "/dev/shm")
        guard FileManager.default.isWritableFile(atPath: memory.path) else { return folder.appendingPathComponent("data").path }
        return memory.appendingPathComponent(folder.lastPathComponent + "-data").path
    }

    /// Whether `/health` answers at `endpoint` (polled until etcd serves).
    private static func serves(_ endpoint: String) -> Bool {
        for _ in 0..<200 {
            if let data = try? Data(contentsOf: URL(string: endpoint + "/health")!),
               String(decoding: data, as: UTF8.self).contains("true") {
                return true
            }
            usleep(50_000)
        }
        return false
    }
}

/// A TCP port of 127.0.0.1 free right now (the kernel's pick for port 0).
func freeTCPPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw StackError("socket: \(errno)") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound else { throw StackError("bind: \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}
