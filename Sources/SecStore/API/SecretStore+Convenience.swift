import Foundation

/// The one-line API: generic passwords under ``SecretStore/Options/defaultService`` (or a
/// service you name). Reads, replacements and removals see every group the caller is
/// entitled to, as a query without a group does; a new item goes to the default group.
extension SecretStore {
    /// The secret stored for `account` as UTF-8 text; setting `nil` removes it.
    ///
    /// ```swift
    /// store["api-token"] = "s3cr3t"
    /// let token = store["api-token"]     // "s3cr3t"
    /// store["api-token"] = nil
    /// ```
    ///
    /// The subscript cannot throw: a read that fails reads as `nil`, a write that fails is
    /// logged (without the value) and dropped. Use ``set(_:forAccount:service:)-(String?,_,_)``
    /// and ``string(forAccount:service:)`` where failures matter.
    public subscript(account: String) -> String? {
        get { try? string(forAccount: account) }
        set { writeIgnoringErrors { try self.set(newValue, forAccount: account) } }
    }

    /// The secret stored for `account` as bytes; setting `nil` removes it. Failures behave as
    /// in ``subscript(_:)``.
    ///
    /// ```swift
    /// store[data: "signing-key"] = keyBytes
    /// ```
    public subscript(data account: String) -> Data? {
        get { try? data(forAccount: account) }
        set { writeIgnoringErrors { try self.set(newValue, forAccount: account) } }
    }

    /// Stores `value` as the secret of `account`, adding the item or replacing its secret.
    ///
    /// ```swift
    /// try store.set("s3cr3t", forAccount: "alice", service: "api.example.com")
    /// ```
    public func set(_ value: String?, forAccount account: String, service: String? = nil) throws {
        try set(value.map { Data($0.utf8) }, forAccount: account, service: service)
    }

    /// Stores `data` as the secret of `account`, in one transaction: replaces the secret of
    /// the item(s) the caller sees under that service and account, in whichever entitled
    /// group they are (the scope `string(forAccount:)` reads and `removeValue` deletes), or
    /// adds a new item in the default group. `nil` removes the item.
    ///
    /// ```swift
    /// try store.set(Data(token), forAccount: "alice", service: "api.example.com")
    /// try store.set(nil as Data?, forAccount: "alice", service: "api.example.com")   // removes it
    /// ```
    public func set(_ data: Data?, forAccount account: String, service: String? = nil) throws {
        try guarded {
            guard let data else {
                try removeValue(forAccount: account, service: service)
                return
            }
            let service = service ?? options.resolvedDefaultService
            try write { transaction in
                if try transaction.updateAll(matching: Query(service: service, account: account), with: ItemChanges(data: data)) == 0 {
                    try transaction.add(.genericPassword(service: service, account: account, data: data))
                }
            }
        }
    }

    /// The secret of `account` as UTF-8 text, or `nil` when there is no such item.
    ///
    /// ```swift
    /// guard let token = try store.string(forAccount: "alice", service: "api.example.com") else {
    ///     return promptForLogin()
    /// }
    /// ```
    ///
    /// - Throws: ``SecStoreError`` when the item exists but cannot be read (locked, damaged),
    ///   or its secret is not UTF-8 text.
    public func string(forAccount account: String, service: String? = nil) throws -> String? {
        guard let data = try data(forAccount: account, service: service) else { return nil }
        guard let string = String(data: data, encoding: .utf8) else {
            throw SecStoreError.invalid("The secret of \(account) is not UTF-8 text. Read it with data(forAccount:service:).")
        }
        return string
    }

    /// The secret of `account` as bytes, or `nil` when there is no such item.
    ///
    /// ```swift
    /// let key = try store.data(forAccount: "signing-key")
    /// ```
    ///
    /// - Throws: ``SecStoreError`` when the item exists but cannot be read (locked, damaged).
    public func data(forAccount account: String, service: String? = nil) throws -> Data? {
        return try guarded {
            try find(Query(service: service ?? options.resolvedDefaultService, account: account, returning: .data)).first?.data
        }
    }

    /// Removes the item of `account`. Returns false when there was none.
    ///
    /// ```swift
    /// try store.removeValue(forAccount: "alice", service: "api.example.com")   // on sign-out
    /// ```
    @discardableResult
    public func removeValue(forAccount account: String, service: String? = nil) throws -> Bool {
        try deleteAll(matching: Query(service: service ?? options.resolvedDefaultService, account: account)) > 0
    }

    private func writeIgnoringErrors(_ write: () throws -> Void) {
        do {
            try write()
        } catch {
            // Neither the value nor the account: logs carry no attribute values.
            options.logger.error("store write through the subscript failed", metadata: ["error": "\((error as? SecStoreError)?.code.name ?? "unexpected")"])
        }
    }
}
