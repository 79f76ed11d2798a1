import Foundation
import SecStore

/// A stable device identifier kept in a SecStore store: the "UUID in the keychain survives
/// reinstall" pattern, race-free and with provenance.
///
/// ```swift
/// let identity = DeviceIdentity(store: try SecretStore())
/// let id = try identity.identifier()     // the same value on every launch
/// print(id.string)                       // "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
/// ```
///
/// The identifier is a generic password (service ``service``, account ``account``) in the
/// scope's access group. Concurrent first launches, in threads or processes, all get one
/// value: the add's `duplicateItem` decides who won, and the others read the winner's value.
public struct DeviceIdentity: Sendable {
    /// The store that holds the identifier item.
    public let store: SecretStore
    /// The scope, accessibility, mirror and derivation of the identifier.
    public let options: Options

    /// An identity kept in `store`. Nothing is read or written until ``identifier()``.
    ///
    /// ```swift
    /// let identity = DeviceIdentity(store: store, options: .init(scope: .vendor(accessGroup: "ABCDE12345.com.example.shared")))
    /// ```
    public init(store: SecretStore, options: Options = Options()) {
        self.store = store
        self.options = options
    }

    /// The identifier, created on first use: from the store; else restored from the mirror;
    /// else derived (when ``Options/derivation`` is set); else a new random UUID. With a
    /// mirror, it first removes the mirror's temporaries that a killed ``reset()`` left (over a
    /// minute old, held by no process).
    ///
    /// ```swift
    /// let id = try DeviceIdentity(store: store).identifier()
    /// if id.provenance == .generated { print("first launch on this device") }
    /// ```
    ///
    /// - Throws: `SecStoreError` — notably `interactionNotAllowed` before the first unlock
    ///   of a store with a passphrase. A locked store never makes this create a new value.
    ///   `ioFailure` when a configured mirror (``Options/mirrorURL``) is out of date and cannot
    ///   be written, even though the store holds the identifier: the caller asked for a second
    ///   copy that survives losing the store, and an answer without it would hide that it is
    ///   gone. Remove `mirrorURL` to use the store alone.
    public func identifier() throws -> Identifier {
        return try store.guarded {
            let group = try accessGroup()
            let mirror = mirror(group: group)
            // A reset killed before its rename left its temporary, which no later read would
            // otherwise remove (only the next mirror write did, maybe never).
            mirror?.removeAbandonedTemporaries()
            if let stored = try read(group: group) {
                try repair(mirror, with: stored, group: group)
                return Identifier(uuid: stored, provenance: .store)
            }
            let candidate: Identifier
            if let mirrored = mirror?.read() {
                candidate = Identifier(uuid: mirrored, provenance: .mirror)
            } else if let derivation = options.derivation {
                candidate = Identifier(uuid: try MachineIDDerivation.derive(derivation), provenance: .derived)
            } else {
                candidate = Identifier(uuid: UUID(), provenance: .generated)
            }
            let settled = try add(candidate, group: group)
            try repair(mirror, with: settled.uuid, group: group)
            return settled
        }
    }

    /// Replaces the identifier with a new random one, like resetting an advertising
    /// identifier: the old value is gone from the store and the mirror, for every process.
    ///
    /// A ``Derivation`` cannot be reset (it is a function of the machine id): after a reset,
    /// deleting both the store item and the mirror brings the derived value back.
    ///
    /// ```swift
    /// let fresh = try DeviceIdentity(store: store).reset()   // provenance .generated
    /// ```
    ///
    /// - Returns: the new identifier.
    /// - Throws: `SecStoreError` — `missingEntitlement` when the scope's access group is
    ///   not available to the store's entitlements, `ioFailure` when the mirror cannot be
    ///   written (the new mirror is written out under a temporary name before the store changes:
    ///   a full disk or a directory that cannot be written leaves the store as it was), or whatever
    ///   the store's delete and add throw (such as `interactionNotAllowed` while the
    ///   identifier's class is locked).
    public func reset() throws -> Identifier {
        return try store.guarded {
            let group = try accessGroup()
            let fresh = Identifier(uuid: UUID(), provenance: .generated)
            let mirror = mirror(group: group)
            // The new mirror's contents first, under its temporary name: a mirror that cannot be
            // written fails the reset before the store changes, rather than after its commit (a
            // reset reported as failed that had happened, the mirror still on the value reset
            // away). Only the rename follows the commit, so the mirror never names a value the
            // store did not hold; a store write that fails discards the temporary.
            let pending = try mirror.map { mirror in try mirrorWrite(mirror) { try mirror.prepare(fresh.uuid) } }
            try store.write { transaction in
                // Nothing to forget yet is fine: a delete that finds nothing changes nothing.
                _ = try transaction.deleteAll(matching: query(group: group))
                try transaction.add(try item(fresh.uuid, group: group))
            }
            if let mirror, let pending { _ = try mirrorWrite(mirror) { try pending.commit(.replace) } }
            try repair(mirror, with: fresh.uuid, group: group)
            return fresh
        }
    }

    // MARK: Machinery

    private func mirror(group: String) -> MirrorFile? {
        options.mirrorURL.map { MirrorFile(url: $0, group: group) }
    }

    private func accessGroup() throws -> String {
        switch options.scope {
        case .vendor(let group):
            return group
        case .application:
            guard case .entitled(let entitlements) = store.options.access, let appID = entitlements.applicationIdentifier else {
                throw SecStoreError(.missingEntitlement, "The application scope needs an application identifier. Open the store with entitlements that declare one, or use the vendor scope with an explicit access group.")
            }
            return appID
        }
    }

    private func query(group: String, returning: ReturnOptions = []) -> Query {
        var query = Query(service: Self.service, account: Self.account, accessGroup: group, returning: returning)
        query.synchronizable = options.synchronizable ? .yes : .no
        return query
    }

    private func item(_ uuid: UUID, group: String) throws -> Item {
        var item = Item.genericPassword(service: Self.service, account: Self.account, data: Data(uuid.uuidString.utf8),
                                        accessGroup: group, accessibility: options.accessibility, label: "Device identifier")
        if options.synchronizable {
            try SyncJournal.checkCanSync(item.attributes)
            item.attributes.isSynchronizable = true
        }
        return item
    }

    /// The stored UUID, or `nil` only when there is no item. A locked or damaged item throws.
    private func read(group: String) throws -> UUID? {
        guard let data = try store.find(query(group: group, returning: .data)).first?.data else { return nil }
        guard let uuid = UUID(uuidString: String(decoding: data, as: UTF8.self)) else {
            throw SecStoreError(.corruptData, "The device identifier item (service \(Self.service)) does not hold a UUID. Reset the identity (`secstore identity reset`).")
        }
        return uuid
    }

    /// Adds `candidate`; when another thread or process added first, returns its value.
    private func add(_ candidate: Identifier, group: String) throws -> Identifier {
        do {
            try store.add(try item(candidate.uuid, group: group))
            return candidate
        } catch let error as SecStoreError where error.code == .duplicateItem {
            guard let winner = try read(group: group) else { throw error }
            return Identifier(uuid: winner, provenance: .store)
        }
    }

    /// Makes the mirror hold the store's value, `uuid` as read. A reset in another process may
    /// commit after that read and write its value to the mirror before this writes `uuid` over
    /// it, so after each write the store is read again and the mirror follows it until the two
    /// agree: whichever process writes the mirror last has just seen the store hold that value
    /// (`IdentityMirrorRaceTests`). A bounded number of rounds: a mirror that never reads back
    /// what was written (or resets that never stop) must not keep the caller here; the next
    /// call repairs it again.
    private func repair(_ mirror: MirrorFile?, with uuid: UUID, group: String) throws {
        guard let mirror else { return }
        var current = uuid
        for _ in 0..<4 {
            guard mirror.read() != current else { return }
            try mirrorWrite(mirror) { try mirror.write(current) }
            // Deleted meanwhile (nothing to follow): the mirror keeps the last value there was.
            guard let stored = try read(group: group) else { return }
            current = stored
        }
    }

    /// Runs `work` on the mirror; every failure is an `ioFailure`.
    private func mirrorWrite<T>(_ mirror: MirrorFile, _ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as SecStoreError {
            // The writer's own message names the mirror, the cause and its fix (a full disk,
            // a directory in the mirror's place, a directory others may write).
            throw error.code == .ioFailure ? error : SecStoreError(.ioFailure, "Cannot write the identifier's mirror copy at \(mirror.url.path): \(error.message)")
        }
    }
}
