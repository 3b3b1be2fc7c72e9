import Processes
import ProcessSupport
import Testing
import ZeroMQ
import TestTiers

/// CURVE settings from the environment: which certificate each process uses, and clear errors.
@Suite(.tags(.unit)) struct CurveSettingsTests {
    let folder: TemporaryFolder
    let bus: Certificate
    let roster: Certificate

    init() throws {
        folder = try TemporaryFolder()
        bus = try Certificate.generate(metadata: ["name": "bus"])
        roster = try Certificate.generate(metadata: ["name": "roster"])
        try bus.save(in: folder.path, name: "bus")
        try roster.save(in: folder.path, name: "roster")
    }

    func settings(_ environment: [String: String], _ component: String?) throws(ConfigError) -> CurveSettings? {
        try BusConfig.fromEnvironment(environment, component: component).curve
    }

    func problem(_ environment: [String: String], _ component: String?) -> String? {
        do {
            _ = try settings(environment, component)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func withoutKeysEverythingIsPlaintext() throws {
        #expect(try settings([:], "roster") == nil)
        #expect(try settings([:], "bus") == nil)
        #expect(try settings(["BUS_KEYS_DIR": ""], nil) == nil)
        #expect(BusConfig().securitySummary.hasPrefix("plaintext"))
    }

    @Test func theBusServesWithItsOwnCertificate() throws {
        let curve = try #require(try settings(["BUS_KEYS_DIR": folder.path, "BUS_CLIENT_CERT": "/ignored"], "bus"))
        #expect(curve.keys == bus.keyPair)
        #expect(curve.serverKey == bus.publicKey)
        #expect(curve.authorizedDirectory == folder.file("authorized"))
    }

    @Test func aServiceUsesItsNamedCertificateAndTheBusPublicKey() throws {
        let curve = try #require(try settings(["BUS_KEYS_DIR": folder.path], "roster"))
        #expect(curve.keys == roster.keyPair)
        #expect(curve.serverKey == bus.publicKey)
        #expect(curve.certificatePath == folder.file("roster.key_secret"))
        let summary = try BusConfig.fromEnvironment(["BUS_KEYS_DIR": folder.path], component: "roster").securitySummary
        #expect(summary.contains(roster.publicKey.z85))
        #expect(!summary.contains(try #require(roster.keyPair).secretKey.z85))
    }

    @Test func aClientCertificateAndServerKeyMayBeGivenWithoutTheFolder() throws {
        let environment = ["BUS_CLIENT_CERT": folder.file("roster.key_secret"), "BUS_SERVER_KEY": bus.publicKey.z85]
        let curve = try #require(try settings(environment, "gateway"))
        #expect(curve.keys == roster.keyPair)
        #expect(curve.serverKey == bus.publicKey)
        #expect(curve.keysDirectory == nil)
    }

    @Test func missingOrWrongKeysAreExplained() throws {
        #expect(problem(["BUS_KEYS_DIR": folder.path], "gateway")
            == "BUS_KEYS_DIR: cannot read \(folder.file("gateway.key_secret")): No such file or directory (create keys with `gateway keys init DIR`)")
        #expect(problem(["BUS_KEYS_DIR": folder.path], nil)?.hasPrefix("BUS_KEYS_DIR is set but this program has no certificate name") == true)
        #expect(problem(["BUS_CLIENT_CERT": folder.file("roster.key")], "roster")?.contains("has no secret-key: it is a public certificate") == true)
        #expect(problem(["BUS_CLIENT_CERT": folder.file("roster.key_secret")], "roster")?.hasPrefix("BUS_CLIENT_CERT is set but the bus's public key is unknown") == true)
        #expect(problem(["BUS_SERVER_KEY": bus.publicKey.z85], "roster")?.hasPrefix("BUS_SERVER_KEY is set but there is no client certificate") == true)
        #expect(problem(["BUS_KEYS_DIR": folder.path, "BUS_SERVER_KEY": "nonsense"], "roster")?.hasPrefix("BUS_SERVER_KEY must be the bus's public key") == true)
        let noBusKey = try TemporaryFolder()
        try roster.save(in: noBusKey.path, name: "roster")
        #expect(problem(["BUS_KEYS_DIR": noBusKey.path], "roster")?.contains("bus.key: No such file or directory") == true)
        #expect(problem(["BUS_KEYS_DIR": noBusKey.path], "bus")?.contains("bus.key_secret: No such file or directory") == true)
    }
}

/// The bus's allow-list: the public certificates in a folder.
@Suite(.tags(.unit)) struct AllowListTests {
    @Test func everyPublicCertificateIsAdmittedUnderItsFileName() throws {
        let folder = try TemporaryFolder()
        let roster = try Certificate.generate(metadata: ["role": "roster"]), python = try Certificate.generate()
        try roster.publicCertificate.save(in: folder.path, name: "roster")
        try folder.write("python-client.key", CertificateTests.pyzmqPublic)
        try folder.write("README", "not a certificate")
        try python.save(in: folder.path, name: "misplaced")   // a .key and a .key_secret
        let (list, warnings) = try AllowList.load(folder: folder.path)
        #expect(list.count == 3)
        #expect(list.name(of: roster.publicKey) == "roster")
        #expect(list.name(of: try #require(CurveKey(z85: CertificateTests.publicZ85))) == "python-client")
        #expect(list.name(of: python.publicKey) == "misplaced")
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("misplaced.key_secret is a secret certificate") == true)
    }

    @Test func aBrokenCertificateOrAMissingFolderIsAnError() throws {
        let folder = try TemporaryFolder()
        try folder.write("bad.key", "curve\n    public-key = \"nope\"\n")
        #expect(throws: CertificateError.self) { try AllowList.load(folder: folder.path) }
        #expect(throws: CertificateError("cannot read the folder /nonexistent/authorized: No such file or directory")) {
            try AllowList.load(folder: "/nonexistent/authorized")
        }
    }
}
