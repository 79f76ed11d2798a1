/// An etcd user name and password (etcd's own auth, `etcdctl user add` / `auth enable`).
/// The description never shows the password.
///
/// ```swift
/// let client = EtcdClient(endpoints: urls, credentials: EtcdCredentials(user: "root", password: pw))
/// ```
package struct EtcdCredentials: Sendable, CustomStringConvertible {
    package var user: String
    package var password: String

    package init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    package var description: String { "EtcdCredentials(user: \(user), password: <redacted>)" }
}

extension EtcdCredentials: CustomReflectable {
    /// `dump` and `Mirror` show the user only, never the password.
    package var customMirror: Mirror { Mirror(self, children: ["user": user]) }
}
