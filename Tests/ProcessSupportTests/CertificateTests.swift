import Foundation
import Processes
import ProcessSupport
import Testing
import ZeroMQ
import TestTiers

/// ZeroMQ certificate files: what czmq and pyzmq write, read back tolerantly.
@Suite(.tags(.unit)) struct CertificateTests {
    /// A secret certificate exactly as pyzmq 27's `zmq.auth.create_certificates` writes it.
    static let pyzmqSecret = """
        #   ****  Generated on 2026-11-30 03:43:47.459335 by pyzmq  ****
        #   ZeroMQ CURVE **Secret** Certificate
        #   DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions.

        metadata
        curve
            public-key = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
            secret-key = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"

        """
    /// The matching public certificate, as pyzmq writes it.
    static let pyzmqPublic = """
        #   ****  Generated on 2026-11-30 03:43:47.459335 by pyzmq  ****
        #   ZeroMQ CURVE Public Certificate
        #   Exchange securely, or use a secure mechanism to verify the contents
        #   of this file after exchange. Store public certificates in your home
        #   directory, in the .curve subdirectory.

        metadata
        curve
            public-key = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"

        """
    static let publicZ85 = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
    static let secretZ85 = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"

    @Test func readsPyzmqsSecretAndPublicCertificates() throws {
        let secret = try Certificate(parsing: Self.pyzmqSecret)
        #expect(secret.publicKey.z85 == Self.publicZ85)
        #expect(secret.keyPair?.secretKey.z85 == Self.secretZ85)
        #expect(secret.metadata.isEmpty)
        #expect(secret.role == nil)
        let shared = try Certificate(parsing: Self.pyzmqPublic)
        #expect(shared.publicKey == secret.publicKey)
        #expect(shared.keyPair == nil)
    }

    @Test func readsCzmqsLayoutWithQuotedMetadata() throws {
        let text = """
            #   ****  Generated on 2026-11-30 03:43:47 by CZMQ  ****
            #   ZeroMQ CURVE **Secret** Certificate
            #   DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions.

            metadata
                name = "roster"
                email = "ops@example.com"
                role = "roster"
            curve
                public-key = "\(Self.publicZ85)"
                secret-key = "\(Self.secretZ85)"
            """
        let certificate = try Certificate(parsing: text)
        #expect(certificate.metadata == ["name": "roster", "email": "ops@example.com", "role": "roster"])
        #expect(certificate.role == "roster")
        #expect(try Certificate(parsing: certificate.text()).role == "roster")
        #expect(certificate.keyPair != nil)
    }

    @Test func readsTolerantly() throws {
        let variants = [
            // Tabs, single quotes, CRLF line ends, comments everywhere.
            "# comment\r\nmetadata\r\n\towner = Jane Doe   # who made it\r\ncurve  # keys\r\n\t# the key:\r\n\tpublic-key = '\(Self.publicZ85)'\r\n",
            // No quotes, odd spacing, no metadata section, no final newline.
            "curve\n      public-key=\(Self.publicZ85)",
            // Keys not indented under their section.
            "curve\npublic-key = \"\(Self.publicZ85)\"\nsecret-key = \"\(Self.secretZ85)\"",
        ]
        for text in variants {
            let certificate = try Certificate(parsing: text)
            #expect(certificate.publicKey.z85 == Self.publicZ85, "\(text)")
        }
        #expect(try Certificate(parsing: variants[0]).metadata == ["owner": "Jane Doe"])
    }

    @Test func aKeyMayContainTheCommentCharacter() throws {
        // '#' is a Z85 digit: it only starts a comment at the start of a line or after a space.
        let keys = try (0..<200).lazy.map { _ in try CurveKeyPair.generate() }.first { $0.publicKey.z85.contains("#") }
        let pair = try #require(keys)
        let unquoted = try Certificate(parsing: "curve\n    public-key = \(pair.publicKey.z85)  # a comment\n")
        #expect(unquoted.publicKey == pair.publicKey)
    }

    @Test func writingThenReadingGivesTheSameCertificate() throws {
        let certificate = try Certificate.generate(metadata: ["name": "roster"])
        let text = certificate.text()
        #expect(text.contains("metadata\n    name = \"roster\"\ncurve\n    public-key = \"\(certificate.publicKey.z85)\"\n    secret-key = \""))
        #expect(try Certificate(parsing: text) == certificate)
        let publicText = certificate.publicCertificate.text()
        #expect(!publicText.contains("secret-key"))
        #expect(!publicText.contains(try #require(certificate.keyPair).secretKey.z85))
        #expect(try Certificate(parsing: publicText) == certificate.publicCertificate)
    }

    @Test func explainsWhatIsWrong() throws {
        func problem(_ text: String) -> String? {
            do {
                _ = try Certificate(parsing: text, source: "x.key")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem("metadata\ncurve\n") == "x.key: no public-key (a ZeroMQ certificate has `curve` then `public-key = \"…\"`)")
        #expect(problem("curve\n    public-key = \"tooshort\"") == "x.key: public-key is not a CURVE key (40 characters of Z85)")
        #expect(problem("curve\n    public-key = \"\(Self.publicZ85)") == "x.key, line 2: a quote is not closed")
        let other = try CurveKeyPair.generate()
        let mismatch = problem("curve\n    public-key = \"\(Self.publicZ85)\"\n    secret-key = \"\(other.secretKey.z85)\"")
        #expect(mismatch == "x.key: its public-key is not the one that goes with its secret-key")
        #expect(!(mismatch ?? "").contains(other.secretKey.z85))
    }

    @Test func savesPublicAndSecretFilesWithTheirPermissionsAndLoadsThem() throws {
        let folder = try TemporaryFolder()
        let certificate = try Certificate.generate(metadata: ["name": "gateway"])
        let written = try certificate.save(in: folder.path, name: "gateway")
        #expect(written == [folder.file("gateway.key"), folder.file("gateway.key_secret")])
        #expect(try folder.mode("gateway.key") == 0o644)
        #expect(try folder.mode("gateway.key_secret") == 0o600)
        #expect(try Certificate.load(folder.file("gateway.key_secret")) == certificate)
        #expect(try Certificate.load(folder.file("gateway.key")) == certificate.publicCertificate)

        // Not replaced unless asked.
        let other = try Certificate.generate()
        #expect(throws: CertificateError.self) { try other.save(in: folder.path, name: "gateway") }
        #expect(try Certificate.load(folder.file("gateway.key_secret")) == certificate)
        try other.save(in: folder.path, name: "gateway", overwrite: true)
        #expect(try Certificate.load(folder.file("gateway.key_secret")) == other)
        #expect(try folder.mode("gateway.key_secret") == 0o600)
    }

    /// What `keys init` writes into `authorized/`: a public certificate alone, and no secret file.
    @Test func aPublicCertificateSavesItsPublicFileOnly() throws {
        let folder = try TemporaryFolder()
        let certificate = try Certificate.generate(metadata: ["name": "roster"]).publicCertificate
        let written = try certificate.save(in: folder.path, name: "roster")
        #expect(written == [folder.file("roster.key")])
        #expect(try Certificate.load(folder.file("roster.key")) == certificate)
        #expect(try folder.mode("roster.key") == 0o644)
        #expect(!FileManager.default.fileExists(atPath: folder.file("roster.key_secret")))
    }

    @Test func aMissingFileIsNamedWithTheReason() {
        #expect(throws: CertificateError("cannot read /nonexistent/bus.key_secret: No such file or directory")) {
            try Certificate.load("/nonexistent/bus.key_secret")
        }
    }

    @Test func descriptionsNeverShowTheSecretKey() throws {
        let certificate = try Certificate.generate()
        let secret = try #require(certificate.keyPair).secretKey.z85
        #expect(!String(describing: certificate).contains(secret))
        #expect(!String(reflecting: certificate).contains(secret))
    }
}
