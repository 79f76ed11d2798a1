import Foundation

/// How to reach etcd: what `sync init` and `sync join` are given, kept in the store.
package struct SyncConnection: Sendable {
    package var endpoints: [String]
    package var prefix: String
    package var user: String?
    package var password: String?
    /// TLS (`https://` endpoints): the CA file (`nil`: the system's certificate authorities),
    /// and a client certificate and its key when etcd asks for one.
    package var certificateAuthorityFile: String?
    package var clientCertificateFile: String?
    package var clientKeyFile: String?

    package init(endpoints: [String], prefix: String = "secstore", user: String? = nil, password: String? = nil,
                 certificateAuthorityFile: String? = nil, clientCertificateFile: String? = nil, clientKeyFile: String? = nil) {
        self.endpoints = endpoints
        self.prefix = prefix
        self.user = user
        self.password = password
        self.certificateAuthorityFile = certificateAuthorityFile
        self.clientCertificateFile = clientCertificateFile
        self.clientKeyFile = clientKeyFile
    }
}
