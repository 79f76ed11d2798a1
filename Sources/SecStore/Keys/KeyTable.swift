import Foundation
internal import GRDB

/// The one home of the key table's consistency rules (format version 2): which class key
/// rows the store's passphrase state implies, and the binding that ties each class key row
/// to that state.
///
/// A row's `binding` column is keyed BLAKE2b-256 (key from the master key) over the store
/// id, the row's name, protection and sealed key, and the passphrase record (salt and
/// Argon2id limits, or "none"). So a class key row copied back from before `passphrase set`
/// (bound to "none") is refused once a passphrase exists, a row whose protection byte was
/// edited is refused, and so is a row with no binding. Rows the state requires but that are
/// missing, and rows it forbids, are damage too: nothing is ever treated as "locked" or
/// "unlocked" because a row was deleted.
struct KeyTable: Sendable {
    let storeID: [UInt8]
    private let binder: BlindIndexer

    /// `binder`: ``MasterSubkeys/keyTableBinder``.
    init(storeID: [UInt8], binder: BlindIndexer) {
        self.storeID = storeID
        self.binder = binder
    }

    /// The protection `accessibility`'s class key row must have, or `nil` when the row must
    /// not exist (`whenPasscodeSetThisDeviceOnly` without a passphrase).
    static func requiredProtection(of accessibility: Accessibility, passphraseSet: Bool) -> KeyProtection? {
        guard passphraseSet else { return accessibility == .whenPasscodeSetThisDeviceOnly ? nil : .device }
        return accessibility.isPassphraseProtected ? .passphrase : .device
    }

    /// What reading the class key rows against the passphrase state found.
    struct Reading {
        /// Rows that are bound to the current state, have the protection it requires and may exist.
        var sound: [Accessibility: KeyRecord] = [:]
        /// Classes whose row is missing, unexpected, unbound or bound to another state, with why.
        var damaged: [Accessibility: String] = [:]
    }

    /// Checks every class key row against `passphrase` (the store's current record).
    func read(_ rows: [KeyRecord], passphrase: PassphraseRecord?) -> Reading {
        var reading = Reading()
        var byClass: [Accessibility: KeyRecord] = [:]
        for row in rows {
            if let accessibility = row.accessibility { byClass[accessibility] = row }
        }
        for accessibility in Accessibility.allCases {
            let required = Self.requiredProtection(of: accessibility, passphraseSet: passphrase != nil)
            switch (byClass[accessibility], required) {
            case (nil, nil):
                continue
            case (nil, .some):
                reading.damaged[accessibility] = "is missing"
            case (.some, nil):
                reading.damaged[accessibility] = "exists although the store has no passphrase"
            case let (row?, protection?):
                if row.protection != protection {
                    reading.damaged[accessibility] = "has the wrong protection for the store's passphrase state"
                } else if let stored = row.binding, ConstantTime.equals(Array(stored), binding(of: row, passphrase: passphrase)) {
                    reading.sound[accessibility] = row
                } else {
                    reading.damaged[accessibility] = "is not bound to the store's passphrase state (copied from an older file, or edited)"
                }
            }
        }
        return reading
    }

    /// Fails with `corruptData` unless every class key row is sound: passphrase changes
    /// re-bind every row, and must not launder one that was tampered with.
    func requireSound(_ db: Database, path: String) throws {
        let reading = read(try KeyRecord.fetchClassKeys(db), passphrase: try PassphraseRecord.fetch(db))
        if let (accessibility, problem) = reading.damaged.min(by: { $0.key.code < $1.key.code }) {
            throw SecStoreError(.corruptData, "The key record \(KeyRecord.name(for: accessibility)) of \(path) \(problem). Nothing was changed. Run `secstore verify`, and restore the store from a backup.")
        }
    }

    /// Writes the binding of every class key row for the passphrase state now in the file,
    /// inside the caller's transaction (after a passphrase change, creation or migration).
    func bindAll(_ db: Database) throws {
        let passphrase = try PassphraseRecord.fetch(db)
        for row in try KeyRecord.fetchClassKeys(db) {
            try db.execute(sql: "UPDATE keys SET binding = ? WHERE name = ?",
                           arguments: [Data(binding(of: row, passphrase: passphrase)), row.name])
        }
    }

    private func binding(of row: KeyRecord, passphrase: PassphraseRecord?) -> [UInt8] {
        var message = Array("secstore/key-binding/v2".utf8) + storeID
        Self.appendLengthPrefixed(Array(row.name.utf8), to: &message)
        message.append(UInt8(row.protection.rawValue))
        Self.appendLengthPrefixed(Array(row.sealed), to: &message)
        if let passphrase {
            message.append(1)
            message += passphrase.salt
            message += withUnsafeBytes(of: passphrase.limits.operations.bigEndian, Array.init)
            message += withUnsafeBytes(of: UInt64(passphrase.limits.memoryBytes).bigEndian, Array.init)
        } else {
            message.append(0)
        }
        return binder.digest(message, byteCount: 32)
    }

    private static func appendLengthPrefixed(_ bytes: [UInt8], to message: inout [UInt8]) {
        message += withUnsafeBytes(of: UInt32(bytes.count).bigEndian, Array.init)
        message += bytes
    }
}
