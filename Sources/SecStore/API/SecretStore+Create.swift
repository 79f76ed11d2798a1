import Foundation

extension SecretStore {
    /// Creates a store at `url`, with its passphrase when one is given, and opens it. The
    /// store is built completely under a temporary name beside `url` — schema, keys and
    /// passphrase record — and only then linked into place, so a failure, an interrupt or
    /// too little memory for Argon2id leaves nothing at `url`, and no process ever sees a
    /// half-made store. `secstore create` calls it.
    ///
    /// ```swift
    /// let store = try SecretStore.create(at: URL(filePath: "/var/lib/myapp/secrets.secstore"),
    ///                                    passphrase: "correct horse battery staple")
    /// ```
    ///
    /// - Throws: ``SecStoreError`` — `duplicateItem` when a store (or any file) already exists at
    ///   `url`; `storeUnavailable` when the log of a store that was at `url` is still there
    ///   (`<url>-wal`: move it with its store, or delete it); `outOfMemory` when Argon2id cannot
    ///   run with `limits`; `invalidParameter` for an empty passphrase or limits out of range.
    @discardableResult
    public static func create(at url: URL, options: Options = Options(), passphrase: String? = nil,
                              limits: PasswordHashingLimits = .moderate) throws -> SecretStore {
        try options.validate()
        guard try publishNewStore(at: url, options: options, passphrase: passphrase, limits: limits) else {
            throw SecStoreError(.duplicateItem, "A store already exists at \(url.path). Open it, or choose another path.")
        }
        do {
            return try SecretStore(opening: url, options: options, initializing: false)
        } catch let error as SecStoreError {
            // The store is complete at its path; only this handle failed. Say so, or a retry
            // of `create` would meet "already exists" with no idea why.
            throw SecStoreError(error.code, "The store was created at \(url.path), but opening it failed: \(error.message)")
        }
    }

    /// Builds a complete store under a temporary name in `url`'s directory and links it to
    /// `url` without replacing anything there (`link(2)` fails on an existing name). Returns
    /// false when a file already exists at `url` — another process won the race, or the
    /// caller's store was there all along; the temporary file is removed either way. Throws
    /// `storeUnavailable` when another store's log is at `url` without it (``OrphanedLog``).
    static func publishNewStore(at url: URL, options: Options, passphrase: String?,
                                limits: PasswordHashingLimits) throws -> Bool {
        try SecStoreError.catching(path: url.path) {
            let directory = url.deletingLastPathComponent()
            try FileSecurity.ensurePrivateDirectory(directory)
            let prefix = ".\(url.lastPathComponent).new-"
            // A create killed part-way (kill -9, power cut) left its temporary: not ours to keep.
            TemporaryFiles.removeAbandoned(in: directory, matching: { $0.hasPrefix(prefix) })
            let temporary = directory.appending(path: prefix + UUID().uuidString)
            let held = try TemporaryFiles.createHeld(temporary)
            TemporaryFiles.register(temporary)
            defer {
                TemporaryFiles.removeWithCompanions(temporary.path)
                TemporaryFiles.unregister(temporary)
                FileSystem.close(held)
            }
            do {
                // Whoever creates a store owns it: the new, empty store gets its passphrase
                // through owner access (which setting one needs), whatever `options` says.
                var asOwner = options
                asOwner.access = .owner
                let building = try SecretStore(opening: temporary, options: asOwner, initializing: true)
                if let passphrase {
                    try building.setPassphrase(passphrase, limits: limits)
                }
                // Checkpoints and removes the WAL, so the one file holds the whole store.
                try building.engine.database.close()
            }
            // Another store's log at this path would be replayed into this one (``OrphanedLog``).
            if OrphanedLog.exists(beside: url) {
                if FileManager.default.fileExists(atPath: url.path) { return false }
                throw OrphanedLog.refusal(url)
            }
            guard FileSystem.link(temporary.path, url.path) == 0 else {
                if errno == EEXIST { return false }
                throw SecStoreError(.ioFailure, "Cannot create \(url.path): \(String(cString: strerror(errno))). Check the directory's permissions.")
            }
            do {
                try FileSecurity.syncDirectory(directory)
            } catch let error as SecStoreError {
                throw SecStoreError(.ioFailure, "The store was created at \(url.path), but \(error.message.prefix(1).lowercased() + error.message.dropFirst())")
            }
            return true
        }
    }
}
