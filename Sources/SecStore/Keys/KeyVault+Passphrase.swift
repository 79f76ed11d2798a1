import Foundation
internal import GRDB

/// Setting, changing and removing the passphrase. Each one re-wraps class keys in a single
/// transaction and never re-encrypts an item: a crash leaves the old or the new state.
extension KeyVault {
    func setPassphrase(_ passphrase: [UInt8], limits: PasswordHashingLimits) throws {
        try Self.validate(passphrase, limits)
        let record = PassphraseRecord(salt: try SecureRandom.bytes(PasswordHashing.saltByteCount), limits: limits)
        let wrap = try passphraseWrapKey(passphrase: passphrase, record: record)
        let (opened, epoch) = try database.write { db -> ([(Accessibility, SecureBytes)], Int64) in
            guard try PassphraseRecord.fetch(db) == nil else {
                throw SecStoreError.invalid("The store already has a passphrase. Change it instead (`secstore passphrase change`).")
            }
            try keyTable.requireSound(db, path: database.path)
            var opened: [(Accessibility, SecureBytes)] = []
            for record in try KeyRecord.fetchClassKeys(db) {
                guard let accessibility = record.accessibility, accessibility.isPassphraseProtected else { continue }
                guard let classKey = try record.unwrap(with: classWrapKey, storeID: storeID) else {
                    throw SecStoreError.corrupt("The key record \(record.name)")
                }
                try KeyRecord.write(db, name: record.name, protection: .passphrase, key: classKey, wrappingKey: wrap, storeID: storeID)
                opened.append((accessibility, classKey))
            }
            let passcodeOnly = try SecureBytes.random(count: KeyDerivation.keyByteCount)
            try KeyRecord.write(db, name: KeyRecord.name(for: .whenPasscodeSetThisDeviceOnly), protection: .passphrase,
                                key: passcodeOnly, wrappingKey: wrap, storeID: storeID)
            opened.append((.whenPasscodeSetThisDeviceOnly, passcodeOnly))
            try record.save(db)
            try keyTable.bindAll(db)
            return (opened, try bumpEpoch(db))
        }
        commit(epoch: epoch, passphraseSet: true, protected: Set(opened.map(\.0.code)))
        try install(opened, provenByPassphrase: true)
        // A shared unlock belongs to the keys as they were: it ends with any passphrase change.
        firstUnlock.removeSession()
    }

    func changePassphrase(from old: [UInt8], to new: [UInt8], limits: PasswordHashingLimits) throws {
        try Self.validate(new, limits)
        let current = try requireRecord()
        let oldWrap = try passphraseWrapKey(passphrase: old, record: current)
        let next = PassphraseRecord(salt: try SecureRandom.bytes(PasswordHashing.saltByteCount), limits: limits)
        let newWrap = try passphraseWrapKey(passphrase: new, record: next)
        let (opened, epoch) = try database.write { db -> ([(Accessibility, SecureBytes)], Int64) in
            let opened = try unwrapProtected(db, with: oldWrap, expecting: current)
            for (accessibility, classKey) in opened {
                try KeyRecord.write(db, name: KeyRecord.name(for: accessibility), protection: .passphrase,
                                    key: classKey, wrappingKey: newWrap, storeID: storeID)
            }
            try next.save(db)
            try keyTable.bindAll(db)
            return (opened, try bumpEpoch(db))
        }
        commit(epoch: epoch, passphraseSet: true, protected: Set(opened.map(\.0.code)))
        try install(opened, provenByPassphrase: true)
        // A shared unlock belongs to the keys as they were: it ends with any passphrase change.
        firstUnlock.removeSession()
    }

    /// Removes the passphrase and, as on Apple systems, every `WhenPasscodeSetThisDeviceOnly`
    /// item with it. Returns how many such items were deleted.
    func removePassphrase(_ old: [UInt8]) throws -> Int {
        let current = try requireRecord()
        let oldWrap = try passphraseWrapKey(passphrase: old, record: current)
        let (opened, deleted, epoch) = try database.write { db -> ([(Accessibility, SecureBytes)], Int, Int64) in
            var opened = try unwrapProtected(db, with: oldWrap, expecting: current)
            opened.removeAll { $0.0 == .whenPasscodeSetThisDeviceOnly }
            for (accessibility, classKey) in opened {
                try KeyRecord.write(db, name: KeyRecord.name(for: accessibility), protection: .device,
                                    key: classKey, wrappingKey: classWrapKey, storeID: storeID)
            }
            let deleted = try ItemsTable.deleteAll(.whenPasscodeSetThisDeviceOnly, digest: itemsDigest, in: db)
            try db.execute(sql: "DELETE FROM keys WHERE name = ?", arguments: [KeyRecord.name(for: .whenPasscodeSetThisDeviceOnly)])
            try PassphraseRecord.clear(db)
            try keyTable.bindAll(db)
            return (opened, deleted, try bumpEpoch(db))
        }
        commit(epoch: epoch, passphraseSet: false, protected: [])
        state.withLock {
            $0.keys[Accessibility.whenPasscodeSetThisDeviceOnly.code] = nil
            $0.unlockedByPassphrase = []
        }
        try install(opened, provenByPassphrase: false)
        firstUnlock.removeSession()
        return deleted
    }

    /// The current passphrase's salt and limits, or `nil` without a passphrase.
    func passphraseRecord() throws -> PassphraseRecord? {
        try database.read { db in try PassphraseRecord.fetch(db) }
    }

    // MARK: Helpers

    private static func validate(_ passphrase: [UInt8], _ limits: PasswordHashingLimits) throws {
        guard !passphrase.isEmpty else {
            throw SecStoreError.invalid("A passphrase cannot be empty. Remove the passphrase instead if you want none.")
        }
        guard limits.isAcceptable else {
            throw SecStoreError.invalid("\(limits) is outside what SecStore accepts (\(limits.acceptableRange)).")
        }
    }

    private func requireRecord() throws -> PassphraseRecord {
        guard let record = try passphraseRecord() else {
            throw SecStoreError.invalid("The store has no passphrase. Set one first (`secstore passphrase set`).")
        }
        return record
    }

    /// Unwraps every passphrase-protected class key with `wrap`, after checking that no
    /// other process changed the passphrase since `expected` was read.
    private func unwrapProtected(_ db: Database, with wrap: SecureBytes, expecting expected: PassphraseRecord) throws -> [(Accessibility, SecureBytes)] {
        guard try PassphraseRecord.fetch(db) == expected else {
            throw SecStoreError(.authenticationFailed, "The passphrase was changed by another process meanwhile. Try again with the current passphrase.")
        }
        try keyTable.requireSound(db, path: database.path)
        var opened: [(Accessibility, SecureBytes)] = []
        for record in try KeyRecord.fetchClassKeys(db) where record.protection == .passphrase {
            guard let accessibility = record.accessibility, let classKey = try record.unwrap(with: wrap, storeID: storeID) else {
                throw SecStoreError(.authenticationFailed, "The passphrase is not correct.")
            }
            opened.append((accessibility, classKey))
        }
        return opened
    }

    /// Tells other processes the key rows changed.
    private func bumpEpoch(_ db: Database) throws -> Int64 {
        try db.execute(sql: "UPDATE store SET keyEpoch = keyEpoch + 1")
        return try storedEpoch(db)
    }

    /// Records the key state a committed change left.
    private func commit(epoch: Int64, passphraseSet: Bool, protected: Set<UInt8>) {
        state.withLock { state in
            state.passphraseSet = passphraseSet
            state.passphraseProtected = protected
            state.unopened = state.unopened.filter { !protected.contains($0.key) }
            state.epoch = epoch
        }
    }

    /// The key that wraps the passphrase-protected class keys: Argon2id of `passphrase` with
    /// the record's salt and limits, bound to this store and its class wrap key.
    func passphraseWrapKey(passphrase: [UInt8], record: PassphraseRecord) throws -> SecureBytes {
        let passphraseKey = try PasswordHashing.deriveKey(passphrase: passphrase, salt: record.salt, limits: record.limits)
        var message = Array("secstore/passphrase-wrap/v1".utf8) + storeID
        classWrapKey.withUnsafeBytes { message.append(contentsOf: $0) }
        defer { Wipe.bytes(&message) }
        return try KeyDerivation.keyedHash(key: passphraseKey, message: message)
    }
}
