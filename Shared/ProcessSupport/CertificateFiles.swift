extension Certificate {
    /// The certificate in the file at `path` (a `.key` or `.key_secret` file).
    public static func load(_ path: String) throws(CertificateError) -> Certificate {
        let text: String
        do {
            text = try TextFile.read(path)
        } catch {
            throw CertificateError(error.description)
        }
        return try Certificate(parsing: text, source: path)
    }

    /// Writes the certificate as `NAME.key` (public, mode 0644) in `folder` and, if it holds
    /// the secret key, `NAME.key_secret` (mode 0600). Without `overwrite`, existing files are
    /// an error. Returns the paths written.
    @discardableResult
    public func save(in folder: String, name: String, overwrite: Bool = false) throws(CertificateError) -> [String] {
        let base = folder.hasSuffix("/") ? folder + name : folder + "/" + name
        var written = [base + ".key"]
        do {
            try TextFile.write(publicCertificate.text(), to: base + ".key", mode: 0o644, overwrite: overwrite)
            if keyPair != nil {
                try TextFile.write(text(), to: base + ".key_secret", mode: 0o600, overwrite: overwrite)
                written.append(base + ".key_secret")
            }
        } catch {
            throw CertificateError(error.description)
        }
        return written
    }
}
