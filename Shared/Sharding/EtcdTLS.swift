import ProcessSupport

/// The files for etcd over TLS, from `ETCD_TLS_CA`, `ETCD_TLS_CERT` and `ETCD_TLS_KEY`: the
/// authority etcd's certificates chain to (none named: the system's), and the certificate and
/// key a service presents to an etcd started with `--client-cert-auth` (both or neither).
public struct EtcdTLS: Sendable, Equatable {
    /// The PEM file of the certificate authority that signed the members' certificates.
    public var authority: String?
    /// The PEM file of this client's certificate (and any intermediates after it).
    public var certificate: String?
    /// The PEM file of the private key of `certificate`.
    public var key: String?

    /// TLS trusting `authority` (nil: the system's), presenting `certificate` and `key` if given.
    public init(authority: String? = nil, certificate: String? = nil, key: String? = nil) {
        self.authority = authority
        self.certificate = certificate
        self.key = key
    }

    /// The files named in `environment` for members at `endpoints`: nil with http:// members,
    /// where any of the variables set is an error (a user who set them expects TLS and would not
    /// get it), as is a certificate without its key or a key without its certificate.
    public static func fromEnvironment(_ environment: [String: String], for endpoints: [EtcdEndpoint]) throws(EtcdError) -> EtcdTLS? {
        func value(_ variable: EnvironmentVariable) -> String? { environment[variable.name].flatMap { $0.isEmpty ? nil : $0 } }
        let files = EtcdTLS(authority: value(.etcdTLSAuthority), certificate: value(.etcdTLSCertificate), key: value(.etcdTLSKey))
        let named = [EnvironmentVariable.etcdTLSAuthority, .etcdTLSCertificate, .etcdTLSKey].filter { value($0) != nil }.map(\.name)
        guard endpoints.contains(where: \.secure) else {
            guard named.isEmpty else {
                throw EtcdError(description: "\(named.joined(separator: ", ")) set, but ETCD_ENDPOINTS are http:// URLs: etcd over TLS needs https://")
            }
            return nil
        }
        guard (files.certificate == nil) == (files.key == nil) else {
            throw EtcdError(description: files.certificate == nil
                ? "ETCD_TLS_KEY set without ETCD_TLS_CERT (the client certificate needs both)"
                : "ETCD_TLS_CERT set without ETCD_TLS_KEY (the client certificate needs both)")
        }
        return files
    }
}
