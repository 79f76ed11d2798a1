/// TLS settings for `https://` endpoints (etcd's `--cert-file`/`--key-file`, and
/// `--client-cert-auth` with `--trusted-ca-file` for client certificates). PEM files.
///
/// ```swift
/// let tls = EtcdTLS(certificateAuthorityFile: "/etc/secstore/etcd-ca.pem",
///                   clientCertificateFile: "/etc/secstore/etcd-client.pem",
///                   clientKeyFile: "/etc/secstore/etcd-client.key")
/// let client = try EtcdClient(endpoints: [URL(string: "https://10.0.0.1:2379")!], tls: tls)
/// ```
package struct EtcdTLS: Sendable, Equatable {
    /// The CA certificates that may sign the members' certificates; nil: the system's (OpenSSL's
    /// default paths, `/etc/ssl/certs` on Debian).
    package var certificateAuthorityFile: String?
    /// A client certificate (chain) to present, for clusters started with `--client-cert-auth`.
    package var clientCertificateFile: String?
    /// The client certificate's private key; required with `clientCertificateFile`.
    package var clientKeyFile: String?

    package init(certificateAuthorityFile: String? = nil, clientCertificateFile: String? = nil,
                 clientKeyFile: String? = nil) {
        self.certificateAuthorityFile = certificateAuthorityFile
        self.clientCertificateFile = clientCertificateFile
        self.clientKeyFile = clientKeyFile
    }
}
