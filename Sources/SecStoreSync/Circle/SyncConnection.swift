import Foundation

/// How to reach etcd: what `sync init` and `sync join` are given, kept in the store.
package struct SyncConnection: Sendable {
    package var endpoints: [String]
    package var prefix: String
    package var user: String?
    package var password: String?
    package var certificateAuthorityFile: String?

    package init(endpoints: [String], prefix: String = "secstore", user: String? = nil, password: String? = nil,
                 certificateAuthorityFile: String? = nil) {
        self.endpoints = endpoints
        self.prefix = prefix
        self.user = user
        self.password = password
        self.certificateAuthorityFile = certificateAuthorityFile
    }
}
