import Foundation
import SecStore

/// docker-credential-helpers' `store`, `get`, `erase` and `list` over a store's internet
/// passwords. A registry URL is mapped by ``RegistryURL`` and ``InternetLocation``; the
/// username is the account, the secret is the item's secret, and every item is labelled
/// ``label`` (`Docker Credentials`) with authentication type `dflt`, as the macOS keychain
/// helper stores them. Only items with that label are seen, so other internet passwords in
/// the same access group are never returned, replaced or erased.
///
/// Every operation sees both synchronizable credentials and credentials kept on this device
/// (`synchronizable: .any`); ``addsSynchronizable`` decides only the kind of a credential
/// `store` adds.
///
/// ```swift
/// let registry = DockerCredentialStore(store: try SecretStore())
/// try registry.store(DockerCredentials(serverURL: "https://index.docker.io/v1/", username: "alice", secret: "s3cr3t"))
/// let found = try registry.get(serverURL: "https://index.docker.io/v1/")   // alice, s3cr3t
/// ```
public struct DockerCredentialStore: Sendable {
    /// The label docker-credential-helpers gives its items (`credentials.CredsLabel`).
    public static let label = "Docker Credentials"

    /// The store the credentials live in.
    public let store: SecretStore
    /// Whether ``store(_:)`` adds a new credential as a synchronizable item, which SecStore's
    /// sync carries to the owner's other devices (`SECSTORE_SYNCHRONIZABLE=1`).
    public let addsSynchronizable: Bool

    /// Credentials in `store`, in the caller's default access group; new ones synchronizable
    /// when `addsSynchronizable`.
    ///
    /// ```swift
    /// let registry = DockerCredentialStore(store: store, addsSynchronizable: true)
    /// ```
    public init(store: SecretStore, addsSynchronizable: Bool = false) {
        self.store = store
        self.addsSynchronizable = addsSynchronizable
    }

    /// Keeps `credentials`, replacing whatever was stored for the same server URL (one
    /// credential per URL, whatever its username), in one transaction.
    ///
    /// A credential already stored for the URL is updated in place (username and secret),
    /// so it keeps its kind: a synchronizable one stays synchronizable, one kept on this
    /// device stays there. When several are stored for the URL, the synchronizable one is
    /// kept (the newest of them) and the others are deleted. Only a new credential follows
    /// ``addsSynchronizable``; it gets the store's default accessibility, `whenUnlocked`,
    /// which is not a `…ThisDeviceOnly` class, so a synchronizable one does leave the device.
    ///
    /// ```swift
    /// try registry.store(DockerCredentials(serverURL: "registry.example.com:5000", username: "ci", secret: token))
    /// ```
    ///
    /// - Throws: ``BridgeError``: a server URL ``RegistryURL`` refuses, or the store's failure.
    public func store(_ credentials: DockerCredentials) throws(BridgeError) {
        let location = try RegistryURL.location(of: credentials.serverURL)
        let secret = Data(credentials.secret.utf8)
        try BridgeError.catchingStore {
            try store.write { transaction in
                let existing = try items(at: location, in: transaction.find)
                    .sorted { Self.kept($0.attributes, before: $1.attributes) }
                    .compactMap(\.persistentReference)
                for reference in existing.dropFirst() {
                    try transaction.delete(matching: Query(persistentReference: reference))
                }
                if let kept = existing.first {
                    var changes = Attributes()
                    changes.account = credentials.username
                    try transaction.update(matching: Query(persistentReference: kept), with: ItemChanges(attributes: changes, data: secret))
                    return
                }
                var attributes = location.attributes(account: credentials.username)
                attributes.label = Self.label
                if addsSynchronizable { attributes.isSynchronizable = true }
                try transaction.add(Item(itemClass: .internetPassword, attributes: attributes, data: secret))
            }
        }
    }

    /// The credentials stored for exactly this server URL (same scheme, host, port and path),
    /// of either kind, or `nil`. When several are stored for the URL, the most recently
    /// stored answers; of two stored in the same instant, the synchronizable one.
    ///
    /// ```swift
    /// if let credentials = try registry.get(serverURL: "registry.example.com:5000") { … }
    /// ```
    ///
    /// - Throws: ``BridgeError``: a server URL ``RegistryURL`` refuses, or the store's failure.
    public func get(serverURL: String) throws(BridgeError) -> DockerCredentials? {
        let location = try RegistryURL.location(of: serverURL)
        let item = try BridgeError.catchingStore {
            try store.find(location.query(label: Self.label, returning: [.attributes, .data]))
                .filter { location.matches($0.attributes, exactly: true) }
                .min { SyncPreference.precedes($0.attributes, $1.attributes) }
        }
        guard let item, let username = item.attributes.account else { return nil }
        return DockerCredentials(serverURL: serverURL, username: username, secret: String(decoding: item.data ?? Data(), as: UTF8.self))
    }

    /// Deletes the credentials stored for exactly this server URL, of both kinds (a
    /// synchronizable one is then deleted on every device of the owner).
    ///
    /// ```swift
    /// guard try registry.erase(serverURL: "registry.example.com:5000") else { print("none") }
    /// ```
    ///
    /// - Returns: false when there were none.
    /// - Throws: ``BridgeError``: a server URL ``RegistryURL`` refuses, or the store's failure.
    @discardableResult
    public func erase(serverURL: String) throws(BridgeError) -> Bool {
        let location = try RegistryURL.location(of: serverURL)
        return try BridgeError.catchingStore {
            try store.write { transaction in
                let doomed = try items(at: location, in: transaction.find).compactMap(\.persistentReference)
                for reference in doomed {
                    try transaction.delete(matching: Query(persistentReference: reference))
                }
                return !doomed.isEmpty
            }
        }
    }

    /// Every stored credential's server URL and username, URLs rebuilt from the items'
    /// attributes (`https://host[:port][/path]`; `http` for plain-HTTP registries), of both
    /// kinds. A URL stored more than once is listed once, with the username ``get(serverURL:)``
    /// answers with.
    ///
    /// ```swift
    /// for (url, username) in try registry.list() { print(url, username) }
    /// ```
    ///
    /// - Throws: ``BridgeError``: the store's failure.
    public func list() throws(BridgeError) -> [String: String] {
        var attributes = Attributes()
        attributes.label = Self.label
        let items = try BridgeError.catchingStore {
            try store.find(Query(itemClass: .internetPassword, attributes: attributes, synchronizable: .any, limit: .all, returning: .attributes))
        }
        var urls: [String: String] = [:]
        for item in items.sorted(by: { SyncPreference.precedes($0.attributes, $1.attributes) }) {
            guard let location = InternetLocation(item: item.attributes), let account = item.attributes.account,
                  urls[location.url] == nil else { continue }
            urls[location.url] = account
        }
        return urls
    }

    /// The labelled items stored for exactly `location`, of both kinds, with their attributes
    /// and references.
    private func items(at location: InternetLocation, in find: (Query) throws -> [Item]) throws -> [Item] {
        try find(location.query(label: Self.label, returning: [.attributes, .persistentReference]))
            .filter { location.matches($0.attributes, exactly: true) }
    }

    /// Which credential `store` keeps when several are stored for one URL: a synchronizable
    /// one, so the new secret reaches every device, then the newest.
    private static func kept(_ first: Attributes, before second: Attributes) -> Bool {
        let firstSyncs = first.isSynchronizable ?? false, secondSyncs = second.isSynchronizable ?? false
        guard firstSyncs == secondSyncs else { return firstSyncs }
        return SyncPreference.precedes(first, second)
    }
}
