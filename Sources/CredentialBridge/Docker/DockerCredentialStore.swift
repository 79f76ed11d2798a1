import Foundation
import SecStore

/// docker-credential-helpers' `store`, `get`, `erase` and `list` over a store's internet
/// passwords. A registry URL is mapped by ``RegistryURL`` and ``InternetLocation``; the
/// username is the account, the secret is the item's secret, and every item is labelled
/// ``label`` (`Docker Credentials`) with authentication type `dflt`, as the macOS keychain
/// helper stores them. Only items with that label are seen, so other internet passwords in
/// the same access group are never returned, replaced or erased.
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

    /// Credentials in `store`, in the caller's default access group.
    ///
    /// ```swift
    /// let registry = DockerCredentialStore(store: store)
    /// ```
    public init(store: SecretStore) {
        self.store = store
    }

    /// Keeps `credentials`, replacing whatever was stored for the same server URL (one
    /// credential per URL, whatever its username), in one transaction.
    ///
    /// ```swift
    /// try registry.store(DockerCredentials(serverURL: "registry.example.com:5000", username: "ci", secret: token))
    /// ```
    ///
    /// - Throws: ``BridgeError``: a server URL ``RegistryURL`` refuses, or the store's failure.
    public func store(_ credentials: DockerCredentials) throws(BridgeError) {
        let location = try RegistryURL.location(of: credentials.serverURL)
        var attributes = location.attributes(account: credentials.username)
        attributes.label = Self.label
        try BridgeError.catchingStore {
            try store.write { transaction in
                for reference in try references(at: location, in: transaction.find) {
                    try transaction.delete(matching: Query(persistentReference: reference))
                }
                try transaction.add(Item(itemClass: .internetPassword, attributes: attributes, data: Data(credentials.secret.utf8)))
            }
        }
    }

    /// The credentials stored for exactly this server URL (same scheme, host, port and path),
    /// or `nil`.
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
                .max { ($0.attributes.modificationDate ?? .distantPast) < ($1.attributes.modificationDate ?? .distantPast) }
        }
        guard let item, let username = item.attributes.account else { return nil }
        return DockerCredentials(serverURL: serverURL, username: username, secret: String(decoding: item.data ?? Data(), as: UTF8.self))
    }

    /// Deletes the credentials stored for exactly this server URL.
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
                let doomed = try references(at: location, in: transaction.find)
                for reference in doomed {
                    try transaction.delete(matching: Query(persistentReference: reference))
                }
                return !doomed.isEmpty
            }
        }
    }

    /// Every stored credential's server URL and username, URLs rebuilt from the items'
    /// attributes (`https://host[:port][/path]`; `http` for plain-HTTP registries).
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
            try store.find(Query(itemClass: .internetPassword, attributes: attributes, limit: .all, returning: .attributes))
        }
        var urls: [String: String] = [:]
        for item in items {
            guard let location = InternetLocation(item: item.attributes), let account = item.attributes.account else { continue }
            urls[location.url] = account
        }
        return urls
    }

    /// The references of the labelled items stored for exactly `location`.
    private func references(at location: InternetLocation, in find: (Query) throws -> [Item]) throws -> [PersistentReference] {
        try find(location.query(label: Self.label, returning: [.attributes, .persistentReference]))
            .filter { location.matches($0.attributes, exactly: true) }
            .compactMap(\.persistentReference)
    }
}
