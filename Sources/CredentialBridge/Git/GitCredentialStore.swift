import Foundation
import SecStore

/// git's `get`, `store` and `erase` over a store's internet passwords: the credential's
/// location is mapped by ``InternetLocation``, its username is the account, and its password,
/// expiry and refresh token are the sealed secret (``GitSecret``).
///
/// Every operation sees both synchronizable credentials and credentials kept on this device
/// (`synchronizable: .any`); ``addsSynchronizable`` decides only the kind of a credential
/// `store` adds.
///
/// ```swift
/// let credentials = GitCredentialStore(store: try SecretStore())
/// try credentials.store(GitCredential(protocol: "https", host: "example.com", username: "alice", password: "s3cr3t"))
/// let answer = try credentials.get(GitCredential(protocol: "https", host: "example.com"))
/// print(answer?.username ?? "none")   // "alice"
/// ```
public struct GitCredentialStore: Sendable {
    /// The store the credentials live in.
    public let store: SecretStore
    /// Whether ``store(_:)`` adds a new credential as a synchronizable item, which SecStore's
    /// sync carries to the owner's other devices (the helper's `--synchronizable`).
    public let addsSynchronizable: Bool

    /// Credentials in `store`, in the caller's default access group; new ones synchronizable
    /// when `addsSynchronizable`.
    ///
    /// ```swift
    /// let credentials = GitCredentialStore(store: store, addsSynchronizable: true)
    /// ```
    public init(store: SecretStore, addsSynchronizable: Bool = false) {
        self.store = store
        self.addsSynchronizable = addsSynchronizable
    }

    /// The answer to git's `get`: the stored credential for the request's location and
    /// username, or `nil`. A part the request leaves out matches any value (git's rule: a
    /// request without `path` finds path-scoped credentials too); the port is part of the host.
    ///
    /// Among several matches (several users of one host, or a synchronizable credential and
    /// one kept on this device), the most recently stored whose password has not expired
    /// answers, whatever its kind; of two stored in the same instant, the synchronizable one. An expired password is never returned: when only
    /// expired credentials match, the newest one that has a refresh token answers with its
    /// username and refresh token alone, so a refreshing helper after this one can use it.
    /// A request without a protocol or a host finds nothing. A credential whose secret is not
    /// UTF-8 (written by another tool) or whose username or password holds a newline or NUL
    /// never answers: git would be handed a password other than the stored one.
    ///
    /// ```swift
    /// let answer = try credentials.get(GitCredential(protocol: "https", host: "example.com", username: "alice"))
    /// ```
    ///
    /// - Throws: ``BridgeError`` for a malformed location, or the store's failure (a locked store).
    public func get(_ request: GitCredential, now: Date = Date()) throws(BridgeError) -> GitCredential? {
        guard request.protocol != nil, request.host != nil else { return nil }
        let location = try InternetLocation(scheme: request.protocol, hostAndPort: request.host, path: request.path)
        let found = try BridgeError.catchingStore {
            try store.find(location.query(account: request.username, returning: [.attributes, .data]))
        }
        let candidates = found
            .filter { location.matches($0.attributes, exactly: false) }
            .sorted { SyncPreference.precedes($0.attributes, $1.attributes) }
            .compactMap { item -> (account: String, secret: GitSecret)? in
                guard let account = item.attributes.account, GitCredential.isWritable(account), let data = item.data,
                      GitSecret.isUTF8(data) else { return nil }
                let secret = GitSecret(decoding: data)
                guard GitCredential.isWritable(secret.password), secret.refreshToken.map(GitCredential.isWritable) ?? true else { return nil }
                return (account, secret)
            }
        if let valid = candidates.first(where: { !$0.secret.isExpired(at: now) && !$0.secret.password.isEmpty }) {
            return GitCredential(username: valid.account, password: valid.secret.password,
                                 passwordExpiryUTC: valid.secret.expiry, oauthRefreshToken: valid.secret.refreshToken)
        }
        if let expired = candidates.first(where: { $0.secret.refreshToken != nil }) {
            return GitCredential(username: expired.account, oauthRefreshToken: expired.secret.refreshToken)
        }
        return nil
    }

    /// git's `store`: keeps the credential, replacing the one stored for the same location and
    /// username (in one transaction: the old one stays if the new one cannot be written).
    /// A replaced credential keeps the expiry and refresh token of its password that the
    /// request leaves out, as ``GitSecret/replacing(_:)`` decides: git before 2.41 sends the
    /// password back without them.
    /// A replaced credential keeps its kind, synchronizable or not; when both kinds exist for
    /// the location and username, both get the new password. A new credential is
    /// synchronizable only when ``addsSynchronizable``. New items get the store's default
    /// accessibility, `whenUnlocked`, which is not a `…ThisDeviceOnly` class, so a
    /// synchronizable one does leave the device.
    ///
    /// ```swift
    /// try credentials.store(GitCredential(protocol: "https", host: "example.com", path: "team/app.git",
    ///                                     username: "alice", password: "s3cr3t"))
    /// ```
    ///
    /// - Throws: ``BridgeError`` ``BridgeError/Kind/incomplete`` without a protocol, host,
    ///   username or password (nothing is stored), ``BridgeError/Kind/malformedInput``, or
    ///   the store's failure.
    public func store(_ credential: GitCredential) throws(BridgeError) {
        let location = try Self.checkStorable(credential)
        guard let username = credential.username, let password = credential.password else { return }
        let secret = GitSecret(password: password, expiry: credential.passwordExpiryUTC, refreshToken: credential.oauthRefreshToken)
        try BridgeError.catchingStore {
            try store.write { transaction in
                let existing = try transaction.find(location.query(account: username, returning: [.attributes, .data, .persistentReference]))
                    .filter { location.matches($0.attributes, exactly: true) }
                guard existing.isEmpty else {
                    for item in existing {
                        guard let reference = item.persistentReference else { continue }
                        let replacement = item.data.map { secret.replacing(storedSecret: $0) } ?? secret
                        try transaction.update(matching: Query(persistentReference: reference), with: ItemChanges(data: replacement.encoded))
                    }
                    return
                }
                var attributes = location.attributes(account: username)
                if addsSynchronizable { attributes.isSynchronizable = true }
                try transaction.add(Item(itemClass: .internetPassword, attributes: attributes, data: secret.encoded))
            }
        }
    }

    /// git's `erase`: deletes the credentials that match the request, as ``get(_:now:)``
    /// matches, of both kinds, in one transaction (a synchronizable one is then deleted on
    /// every device of the owner, as sync carries deletes). When the request carries a password, only credentials
    /// with that password are deleted, so a credential another process has just replaced
    /// survives the rejection of the old one.
    ///
    /// ```swift
    /// try credentials.erase(GitCredential(protocol: "https", host: "example.com", username: "alice"))
    /// ```
    ///
    /// - Returns: how many credentials were deleted.
    /// - Throws: ``BridgeError`` ``BridgeError/Kind/refused`` when the request names no
    ///   protocol, host, path or username (it would match every credential), or the store's failure.
    @discardableResult
    public func erase(_ request: GitCredential) throws(BridgeError) -> Int {
        let location = try Self.checkErasable(request)
        return try BridgeError.catchingStore {
            try store.write { transaction in
                let returning: ReturnOptions = request.password == nil ? [.attributes, .persistentReference] : [.attributes, .data, .persistentReference]
                let doomed = try transaction.find(location.query(account: request.username, returning: returning))
                    .filter { location.matches($0.attributes, exactly: false) }
                    .filter { item in request.password.map { GitSecret.storedPassword(of: item.data ?? Data(), is: $0) } ?? true }
                    .compactMap(\.persistentReference)
                for reference in doomed {
                    try transaction.delete(matching: Query(persistentReference: reference))
                }
                return doomed.count
            }
        }
    }

    /// The location of a credential `store` can keep: one with a protocol, a host, a username
    /// and a password, whose location parses.
    ///
    /// ```swift
    /// _ = try GitCredentialStore.checkStorable(credential)   // before creating a store for it
    /// ```
    ///
    /// - Throws: ``BridgeError`` ``BridgeError/Kind/incomplete`` or ``BridgeError/Kind/malformedInput``.
    @discardableResult
    public static func checkStorable(_ credential: GitCredential) throws(BridgeError) -> InternetLocation {
        guard credential.protocol != nil, credential.host != nil, credential.username != nil, credential.password != nil else {
            throw BridgeError(.incomplete, "not stored: a credential needs protocol, host, username and password")
        }
        return try InternetLocation(scheme: credential.protocol, hostAndPort: credential.host, path: credential.path)
    }

    /// The location of an `erase` request that names something: a protocol, host, path or
    /// a username that is not empty. An empty request would match every credential, and one
    /// naming only the empty username every such credential of every host.
    ///
    /// ```swift
    /// try GitCredentialStore.checkErasable(GitCredential())   // throws: refused
    /// ```
    ///
    /// - Throws: ``BridgeError`` ``BridgeError/Kind/refused`` or ``BridgeError/Kind/malformedInput``.
    @discardableResult
    public static func checkErasable(_ request: GitCredential) throws(BridgeError) -> InternetLocation {
        guard request.protocol != nil || request.host != nil || request.path != nil || request.username?.isEmpty == false else {
            throw BridgeError(.refused, "erase refused: name at least a protocol, host, path or username (an empty request would match every credential)")
        }
        return try InternetLocation(scheme: request.protocol, hostAndPort: request.host, path: request.path)
    }
}
