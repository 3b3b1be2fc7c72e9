import Foundation
import Processes
import Sharding
import Testing
import TestTiers

/// etcd over TLS (docs/scaling.md#etcd-over-tls), against a real etcd that requires client
/// certificates, with certificates `Scripts/etcd-certs` makes: the client's calls, every server
/// or file it must refuse (with a line that says why), and a sharded service joining through it.
@Suite(.serialized, .tags(.processes)) final class EtcdTLSTests {
    let folder: TemporaryFolder
    /// The certificates of the etcd these tests start: a member `etcd` for 127.0.0.1.
    let certificates: String
    let etcd: EtcdServer
    /// What a service is given: the authority and the client certificate.
    let tls: EtcdTLS

    init() throws {
        folder = try TemporaryFolder()
        certificates = folder.file("certs")
        try Self.makeCertificates(certificates, "etcd=127.0.0.1,localhost")
        etcd = try EtcdServer(certificates: certificates)
        tls = try #require(etcd.clientTLS)
    }

    /// Runs `Scripts/etcd-certs` into `folder` for `members`.
    static func makeCertificates(_ folder: String, _ members: String...) throws {
        let script = GatewayToolTests.root.appendingPathComponent("Scripts/etcd-certs")
        let result = try runToCompletion(script, [folder] + members, environment: ProcessInfo.processInfo.environment)
        guard result.status == 0 else { throw ProcessError("etcd-certs failed: \(result.stderr)") }
    }

    /// The error `call` throws, as its line, or a note that it threw nothing.
    func failure(_ call: () throws -> Void) -> String {
        do {
            try call()
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func aClientWithTheCertificatesMakesEveryCall() throws {
        #expect(etcd.endpoint.hasPrefix("https://127.0.0.1:"))
        let client = try EtcdClient(endpoint: etcd.endpoint, tls: tls)
        let lease = try client.grantLease(ttl: 5)
        try client.put("/t/a", Array("one".utf8), lease: lease)
        #expect(try client.keepAlive(lease: lease) > 0)
        #expect(try client.get("/t/a")?.value == Array("one".utf8))
        // Several calls on the kept connection, then a second client: a handshake each.
        for index in 0..<20 { try client.put("/t/\(index)", Array("\(index)".utf8)) }
        #expect(try EtcdClient(endpoint: etcd.endpoint, tls: tls).list(prefix: "/t/").count == 21)
        try client.revoke(lease: lease)
        #expect(try client.get("/t/a") == nil)
    }

    @Test func aMemberWithoutAClientCertificateOrInPlainHTTPIsNoUse() throws {
        let anonymous = try EtcdClient(endpoint: etcd.endpoint, tls: EtcdTLS(authority: tls.authority), timeout: 1)
        let refused = failure { _ = try anonymous.get("/t/a") }
        #expect(refused.contains("TLS") && refused.contains("certificate"), "\(refused)")
        // The same port asked in plain HTTP: etcd closes the connection, nothing is written.
        let plain = try EtcdClient(endpoint: etcd.endpoint.replacingOccurrences(of: "https://", with: "http://"), timeout: 1)
        let answered = failure { try plain.put("/t/plain", Array("x".utf8)) }
        #expect(answered.contains("the server closed the connection before answering (a member started with TLS does that with plain HTTP: is its URL https://?)"), "\(answered)")
        #expect(try EtcdClient(endpoint: etcd.endpoint, tls: tls).get("/t/plain") == nil)
    }

    @Test func aServerCertificateFromAnotherAuthorityIsRefused() throws {
        let other = folder.file("other")
        try Self.makeCertificates(other, "etcd=127.0.0.1")
        let client = try EtcdClient(endpoint: etcd.endpoint, tls: EtcdTLS(authority: other + "/ca.crt", certificate: tls.certificate, key: tls.key), timeout: 1)
        let refused = failure { _ = try client.get("/t/a") }
        #expect(refused.contains("the server's certificate is refused: unable to get local issuer certificate"), "\(refused)")
    }

    /// A certificate of the same authority, for another name: the server is not the one asked for.
    @Test func aServerCertificateForAnotherNameIsRefused() throws {
        let addressOnly = folder.file("address-only")
        try Self.makeCertificates(addressOnly, "etcd=127.0.0.1")
        let other = try EtcdServer(certificates: addressOnly)
        let byName = try EtcdClient(endpoint: other.endpoint.replacingOccurrences(of: "127.0.0.1", with: "localhost"), tls: other.clientTLS, timeout: 1)
        let refused = failure { _ = try byName.get("/t/a") }
        #expect(refused.contains("the server's certificate is refused: hostname mismatch"), "\(refused)")
        #expect(try EtcdClient(endpoint: other.endpoint, tls: other.clientTLS).get("/t/a") == nil)
    }

    /// A file that cannot be used is found when the client is made (a service's start), by name.
    @Test func aFileThatCannotBeUsedIsNamed() throws {
        let notPEM = folder.file("not.pem")
        try "not a certificate\n".write(toFile: notPEM, atomically: true, encoding: .utf8)
        let other = folder.file("other-key")
        try Self.makeCertificates(other, "m=127.0.0.1")
        let cases: [(EtcdTLS, String)] = [
            (EtcdTLS(authority: folder.file("missing.crt")), "ETCD_TLS_CA '\(folder.file("missing.crt"))': No such file or directory"),
            (EtcdTLS(authority: notPEM), "ETCD_TLS_CA '\(notPEM)': not a PEM certificate"),
            (EtcdTLS(authority: tls.authority, certificate: notPEM, key: tls.key), "ETCD_TLS_CERT '\(notPEM)': not a PEM certificate"),
            (EtcdTLS(authority: tls.authority, certificate: tls.certificate, key: notPEM), "ETCD_TLS_KEY '\(notPEM)': not a PEM private key"),
            (EtcdTLS(authority: tls.authority, certificate: tls.certificate, key: other + "/m.key"), "is not the key of ETCD_TLS_CERT"),
        ]
        for (files, message) in cases {
            let error = failure { _ = try EtcdClient(endpoint: etcd.endpoint, tls: files) }
            #expect(error.contains(message), "\(files): \(error)")
        }
    }

    /// `Scripts/etcd-certs` run again adds a member under the same authority; a member it
    /// cannot name is refused with its usage, and nothing is made for it.
    @Test func etcdCertsAddsAMemberUnderTheSameAuthority() throws {
        let authority = try String(contentsOfFile: certificates + "/ca.crt", encoding: .utf8)
        try Self.makeCertificates(certificates, "etcd-2=10.0.0.2")
        #expect(try String(contentsOfFile: certificates + "/ca.crt", encoding: .utf8) == authority)
        let verified = try runToCompletion(
            URL(fileURLWithPath: "/usr/bin/openssl"), ["verify", "-CAfile", certificates + "/ca.crt", certificates + "/etcd-2.crt"], environment: [:])
        #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
        let script = GatewayToolTests.root.appendingPathComponent("Scripts/etcd-certs")
        for bad in ["etcd-3", "ca=10.0.0.3", "a/b=10.0.0.3", "etcd-3="] {
            let refused = try runToCompletion(script, [certificates, bad], environment: ProcessInfo.processInfo.environment)
            #expect(refused.status == 2, "\(bad): \(refused.stderr)")
            #expect(refused.stderr.contains("is not MEMBER=NAME[,NAME...]"), "\(bad): \(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: certificates + "/etcd-3.crt"))
    }

    @Test func aShardedServiceJoinsAndAnswersThroughAMemberOverTLS() throws {
        let stack = try Stack(services: ["roster", "input-handling"])
        let instances = try stack.startSharded("presentation-policy", ["pp-tls"], etcd: etcd.endpoint, tls: tls)
        defer { for child in instances.values { child.signal(SIGKILL); _ = child.waitForExit(timeout: 5) } }
        try stack.waitUntilAnswering(["presentation-policy"])
        let add = try stack.json("tls-dev", "--profile", "ipad", "tap", "add")
        #expect(add.types.contains("presentation.presented"), "\(add.stdout) \(add.stderr)")
        let members = try EtcdClient(endpoint: etcd.endpoint, tls: tls).list(prefix: "/monsterbus/members/presentation-policy/")
        #expect(members.map(\.key) == ["/monsterbus/members/presentation-policy/pp-tls"])
    }
}
