import Domain
import Wire
import ZeroMQ

/// A ZeroMQ CURVE certificate, as czmq (`zcert`) and pyzmq (`zmq.auth`) write and read them:
/// `NAME.key` holds the public key, `NAME.key_secret` both keys. The text is ZPL, e.g.
///
///     #   ZeroMQ CURVE **Secret** Certificate
///     metadata
///         name = "roster"
///         role = "roster"
///     curve
///         public-key = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
///         secret-key = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"
///
/// Reading is tolerant: comments, blank lines, any indentation, double, single or no quotes.
public struct Certificate: Sendable, Equatable, CustomStringConvertible {
    /// The `public-key` line: what `authorized/` holds of a client, or the bus's key a client trusts.
    public let publicKey: CurveKey
    /// Both keys, when the certificate holds the secret one.
    public let keyPair: CurveKeyPair?
    /// The `metadata` section (e.g. `name`, `role`).
    public var metadata: [String: String]

    /// The role the bus grants this certificate's holder (`role` in `metadata`): a service's
    /// name, `gateway`, or `observer`; nil when it has none.
    public var role: String? { metadata["role"] }

    /// A secret certificate holding `keys`.
    public init(keys: CurveKeyPair, metadata: [String: String] = [:]) {
        publicKey = keys.publicKey; keyPair = keys; self.metadata = metadata
    }

    /// A public certificate holding `publicKey`.
    public init(publicKey: CurveKey, metadata: [String: String] = [:]) {
        self.publicKey = publicKey; keyPair = nil; self.metadata = metadata
    }

    /// A secret certificate with a fresh key pair.
    public static func generate(metadata: [String: String] = [:]) throws -> Certificate {
        Certificate(keys: try CurveKeyPair.generate(), metadata: metadata)
    }

    /// This certificate without its secret key: what goes in `NAME.key` and is shared.
    public var publicCertificate: Certificate { Certificate(publicKey: publicKey, metadata: metadata) }

    /// The certificate for logs: its public key and whether it holds a secret one, never the secret.
    public var description: String {
        "Certificate(public-key \(publicKey.z85)\(keyPair == nil ? "" : ", with its secret key"))"
    }

    // MARK: Text

    /// The certificate as ZPL text, in czmq's layout, with `secret-key` only when it has one.
    public func text(generated: String = Timestamp.now()) -> String {
        var lines = keyPair == nil
            ? ["#   ****  Generated on \(generated) by Monster Bus  ****",
               "#   ZeroMQ CURVE Public Certificate",
               "#   Exchange securely, or use a secure mechanism to verify the contents",
               "#   of this file after exchange."]
            : ["#   ****  Generated on \(generated) by Monster Bus  ****",
               "#   ZeroMQ CURVE **Secret** Certificate",
               "#   DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions."]
        lines += ["", "metadata"]
        for (name, value) in metadata.sorted(by: { $0.key < $1.key }) {
            lines.append("    \(name) = \"\(value.filter { $0 != "\"" && !$0.isNewline })\"")
        }
        lines += ["curve", "    public-key = \"\(publicKey.z85)\""]
        if let keyPair { lines.append("    secret-key = \"\(keyPair.secretKey.z85)\"") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The certificate in `text`. `source` names it in errors (a file's path).
    public init(parsing text: String, source: String = "certificate") throws(CertificateError) {
        var section: String?
        var curve: [String: String] = [:], topLevel: [String: String] = [:], metadata: [String: String] = [:]
        for (number, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let indented = rawLine.first == " " || rawLine.first == "\t"
            let line = rawLine.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                // A section header: `metadata`, `curve` (a comment may follow).
                section = String(line.prefix { !$0.isWhitespace && $0 != "#" })
                continue
            }
            let name = line[..<equals].trimmingWhitespace()
            let value = try Self.value(of: line[line.index(after: equals)...], line: number + 1, source: source)
            switch indented ? section : nil {
            case "curve": curve[name] = value
            case "metadata": metadata[name] = value
            case nil: topLevel[name] = value
            default: break
            }
        }
        func key(_ name: String) throws(CertificateError) -> CurveKey? {
            guard let text = curve[name] ?? topLevel[name] else { return nil }
            guard let key = CurveKey(z85: text) else {
                throw CertificateError("\(source): \(name) is not a CURVE key (40 characters of Z85)")
            }
            return key
        }
        guard let publicKey = try key("public-key") else {
            throw CertificateError("\(source): no public-key (a ZeroMQ certificate has `curve` then `public-key = \"…\"`)")
        }
        self.publicKey = publicKey
        self.metadata = metadata
        if let secretKey = try key("secret-key") {
            guard let keys = try? CurveKeyPair(secretKey: secretKey), keys.publicKey == publicKey else {
                throw CertificateError("\(source): its public-key is not the one that goes with its secret-key")
            }
            keyPair = keys
        } else {
            keyPair = nil
        }
    }

    /// A property's value: up to the closing quote if quoted, else the rest of the line
    /// without a trailing `# comment`.
    private static func value(of text: Substring, line: Int, source: String) throws(CertificateError) -> String {
        let text = text.drop { $0 == " " || $0 == "\t" }
        if let quote = text.first, quote == "\"" || quote == "'" {
            let inside = text.dropFirst()
            guard let end = inside.firstIndex(of: quote) else {
                throw CertificateError("\(source), line \(line): a quote is not closed")
            }
            return String(inside[..<end])
        }
        var value = text
        if let comment = text.indices.first(where: { text[$0] == "#" && $0 > text.startIndex && text[text.index(before: $0)].isWhitespace }) {
            value = text[..<comment]
        }
        return value.trimmingWhitespace()
    }
}

/// A certificate that cannot be read, written or used, and why (never showing a secret key).
public struct CertificateError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, naming the file (or other source); never shows a secret key.
    public let description: String
    /// An error explained by `description`.
    public init(_ description: String) { self.description = description }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
