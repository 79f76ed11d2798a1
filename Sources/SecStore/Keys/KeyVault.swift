import Foundation
internal import GRDB
import Synchronization

/// The keys of one open store, in `sodium_malloc` memory.
///
/// ```
/// device key (file, 0600)
///   └─ device wrap key = BLAKE2b(key: device key, "secstore/device-wrap/v1" ‖ store id)
///        └─ master key (random, row "master")
///             ├─ index key        = kdf(master, 1, "SSINDEX_")   blind indexes
///             ├─ class wrap key   = kdf(master, 2, "SSCLSWRP")   wraps class keys
///             │    └─ with a passphrase: BLAKE2b(key: Argon2id(passphrase), "secstore/passphrase-wrap/v1" ‖ store id ‖ class wrap key)
///             ├─ first-unlock key = kdf(master, 3, "SSKRWRAP")   seals keys put in the kernel keyring
///             ├─ key-table key    = kdf(master, 4, "SSKEYTBL")   binds class key rows to the passphrase state
///             ├─ items-digest key = kdf(master, 5, "SSROWDIG")   the keyed digest over all item rows
///             └─ class key per accessibility (random, rows "class.ak", …)
///                  ├─ metadata key = kdf(class key, 1, "SSITEMMD")
///                  └─ secret key   = kdf(class key, 2, "SSITEMSC")
/// ```
///
/// The master key is wiped once its subkeys exist (``MasterSubkeys``). A class key is
/// unwrapped when its class is first needed, not at open; its item keys are held only while
/// the class is readable; ``lock(forgettingFirstUnlock:)`` and deinit wipe them.
final class KeyVault: Sendable {
    let storeID: [UInt8]
    let indexer: BlindIndexer
    let firstUnlock: FirstUnlockStore
    let classWrapKey: SecureBytes
    let keyTable: KeyTable
    let itemsDigest: ItemsDigest
    let database: StoreDatabase
    let state: Mutex<State>
    let autoLock: AutoLock?

    struct State {
        /// Item keys of the readable classes, by accessibility code.
        var keys: [UInt8: ItemKeys] = [:]
        /// Device-protected class key rows read but not opened yet, by accessibility code. A
        /// class's key is unwrapped the first time it is needed (``openUnopened(_:)``): a
        /// `secstore get` needs one class of six, and each class opened is a guarded allocation.
        var unopened: [UInt8: KeyRecord] = [:]
        /// Every device-protected class key row of the last reading, opened or not: what
        /// ``damagedClasses()`` authenticates.
        var deviceRows: [UInt8: KeyRecord] = [:]
        /// Classes whose key row needs the passphrase.
        var passphraseProtected: Set<UInt8> = []
        /// Passphrase-protected classes whose key this handle holds because it proved the
        /// passphrase (unlock, set, change). Keys held for any other reason — opened before
        /// another process set the passphrase — are dropped when the rows say so.
        var unlockedByPassphrase: Set<UInt8> = []
        /// `AfterFirstUnlock` classes whose key this handle took from the kernel keyring's
        /// first-unlock entry (another process's unlock), not from the passphrase: held only
        /// while that entry is there, so that `secstore lock` elsewhere takes them back as it
        /// takes them from every new process (``readableKeys(_:)``).
        var borrowedFromKeyring: Set<UInt8> = []
        var passphraseSet = false
        /// Class key rows that are damaged, by accessibility code, with what is wrong: a row
        /// that fails authentication, or one the key table's rules refuse (``KeyTable``).
        /// Their items are reported as damaged; the other classes stay usable (and `verify`
        /// can run and say so).
        var damagedClasses: [UInt8: String] = [:]
        /// When this handle last proved the passphrase (the user-presence proof of
        /// `SecAccessControl` items); wiped by ``lock(forgettingFirstUnlock:)``.
        var passphraseProvenAt: Date?
        /// `store.keyEpoch` when the key rows were last read: another process bumps it
        /// whenever it changes them.
        var epoch: Int64 = 0
    }

    /// Classes a fresh store has keys for. ``Accessibility/whenPasscodeSetThisDeviceOnly``
    /// gets its key when a passphrase is set.
    static let initialClasses = Accessibility.allCases.filter { $0 != .whenPasscodeSetThisDeviceOnly }

    /// Use ``open(database:deviceKey:options:)``.
    init(storeID: [UInt8], masterKey: SecureBytes, database: StoreDatabase, options: SecretStore.Options) throws {
        self.storeID = storeID
        self.database = database
        let subkeys = try MasterSubkeys(of: masterKey)
        indexer = subkeys.indexer
        classWrapKey = subkeys.classWrapKey
        keyTable = KeyTable(storeID: storeID, binder: subkeys.keyTableBinder)
        itemsDigest = ItemsDigest(hasher: subkeys.itemsDigestHasher, path: database.path)
        firstUnlock = FirstUnlockStore(storeID: storeID, sealingKey: subkeys.firstUnlockKey, mode: options.firstUnlockCache,
                                       logger: options.logger)
        state = Mutex(State())
        autoLock = options.autoLockInterval.map(AutoLock.init(interval:))
        autoLock?.start { [weak self] in self?.lock(forgettingFirstUnlock: false) }
    }

    /// Reads the key rows again and makes every class key the vault can open without a
    /// passphrase available (opened when first needed). Forgets keys whose rows are gone (a
    /// removed passphrase's class), and keys of classes another process has put behind a
    /// passphrase this handle never gave.
    func reload(_ db: Database) throws {
        let epoch = try storedEpoch(db)
        let passphrase = try PassphraseRecord.fetch(db)
        let passphraseSet = passphrase != nil
        let reading = keyTable.read(try KeyRecord.fetchClassKeys(db), passphrase: passphrase)
        var opened: [UInt8: ItemKeys] = [:]
        var borrowed: Set<UInt8> = []
        var unopened: [UInt8: KeyRecord] = [:]
        var protected: Set<UInt8> = []
        var present: Set<UInt8> = []
        let damaged = Dictionary(uniqueKeysWithValues: reading.damaged.map { ($0.key.code, $0.value) })
        for (accessibility, record) in reading.sound {
            present.insert(accessibility.code)
            switch record.protection {
            case .device:
                unopened[accessibility.code] = record
            case .passphrase:
                protected.insert(accessibility.code)
                if accessibility.staysUnlockedAfterFirstUnlock, let classKey = firstUnlock.load(accessibility) {
                    opened[accessibility.code] = try ItemKeys(classKey: classKey)
                    borrowed.insert(accessibility.code)
                }
            }
        }
        state.withLock { state in
            // Two reloads can race; the older reading must not win.
            guard epoch >= state.epoch else { return }
            var keys = state.keys.filter { present.contains($0.key) }
            // The passphrase-only class is the one whose key another process can replace
            // (remove, then set a passphrase): after a change elsewhere, unlock it again.
            if state.epoch != epoch {
                keys[Accessibility.whenPasscodeSetThisDeviceOnly.code] = nil
                state.unlockedByPassphrase.remove(Accessibility.whenPasscodeSetThisDeviceOnly.code)
            }
            for code in protected where !state.unlockedByPassphrase.contains(code) {
                keys[code] = nil
            }
            // Borrowed: what this reading took from the keyring where the handle keeps no key
            // of its own (a key borrowed before was dropped just above, and taken again).
            state.borrowedFromKeyring = state.borrowedFromKeyring.intersection(keys.keys)
                .union(borrowed.filter { keys[$0] == nil })
            state.keys = keys.merging(opened) { kept, _ in kept }
            state.unopened = unopened.filter { state.keys[$0.key] == nil }
            state.deviceRows = unopened
            state.unlockedByPassphrase.formIntersection(protected)
            state.passphraseProtected = protected
            state.passphraseSet = passphraseSet
            state.damagedClasses = damaged
            state.epoch = epoch
        }
    }

    /// The keys of `accessibility`'s class if this handle holds them or can open them with the
    /// device key alone.
    private func readableKeys(_ accessibility: Accessibility) throws -> ItemKeys? {
        let code = accessibility.code
        let (keys, borrowed) = state.withLock { ($0.keys[code], $0.borrowedFromKeyring.contains(code)) }
        guard let keys else { return try openUnopened(accessibility) }
        // One keyring search (a system call) per use of a borrowed key: `secstore lock` in
        // another process removes the entry, and with it this handle's use of the key.
        if borrowed && !firstUnlock.isPublished(accessibility) {
            state.withLock { state in
                if state.borrowedFromKeyring.remove(code) != nil { state.keys[code] = nil }
            }
            return nil
        }
        return keys
    }

    /// Opens `accessibility`'s class key if its row was read but not opened yet, and installs
    /// its item keys (or records the row as damaged when it fails authentication). Returns the
    /// class's keys, or nil when it has none this way. The classes no passphrase can lock are
    /// opened together, into their shared region.
    private func openUnopened(_ accessibility: Accessibility) throws -> ItemKeys? {
        let (records, epoch) = state.withLock { state -> ([Accessibility: KeyRecord], Int64) in
            guard let record = state.unopened[accessibility.code] else { return ([:], state.epoch) }
            guard !accessibility.isPassphraseProtected else { return ([accessibility: record], state.epoch) }
            let permanent = state.unopened.compactMap { code, record in
                Accessibility(code: code).flatMap { $0.isPassphraseProtected ? nil : ($0, record) }
            }
            return (Dictionary(uniqueKeysWithValues: permanent), state.epoch)
        }
        guard !records.isEmpty else { return nil }
        let opened = try openDeviceProtectedClasses(records)
        return state.withLock { state in
            // A reload of other rows came in between: its reading stands.
            guard state.epoch == epoch else { return state.keys[accessibility.code] }
            for code in records.keys.map(\.code) where state.unopened.removeValue(forKey: code) != nil {
                if let keys = opened[code] {
                    if state.keys[code] == nil { state.keys[code] = keys }
                } else {
                    state.damagedClasses[code] = "failed authentication"
                }
            }
            return state.keys[accessibility.code]
        }
    }

    /// The item keys of the classes of `records` (device-protected). Each class key goes from
    /// the wiped buffer it is unwrapped into straight to its two item keys; it is never kept. A
    /// class whose row fails authentication is absent from the answer.
    ///
    /// The classes that can never be put behind a passphrase (`…ThisDeviceOnly` of `dk`) share
    /// one guarded region (fewer allocations: docs/performance.md, "Open"); every other class
    /// gets a region of its own, because a region is wiped only when its last key goes, and
    /// those classes' keys must go when the store is locked or their row is re-sealed.
    private func openDeviceProtectedClasses(_ records: [Accessibility: KeyRecord]) throws -> [UInt8: ItemKeys] {
        let device = records.filter { $0.value.protection == .device }.sorted { $0.key.code < $1.key.code }
        var opened: [UInt8: ItemKeys] = [:]
        for (accessibility, record) in device where accessibility.isPassphraseProtected {
            opened[accessibility.code] = try record.withUnwrapped(with: classWrapKey, storeID: storeID, ItemKeys.init(classKeyBytes:))
        }
        let permanent = device.filter { !$0.key.isPassphraseProtected }
        guard !permanent.isEmpty else { return opened }
        var unwrapped = [Bool](repeating: false, count: permanent.count)
        let keys = try SecureBytes.group([Int](repeating: KeyDerivation.keyByteCount, count: 2 * permanent.count)) { buffers in
            for (index, (_, record)) in permanent.enumerated() {
                unwrapped[index] = try record.withUnwrapped(with: classWrapKey, storeID: storeID) { classKey in
                    ItemKeys.derive(metadata: buffers[2 * index], secret: buffers[2 * index + 1], from: classKey)
                } != nil
            }
        }
        for (index, (accessibility, _)) in permanent.enumerated() where unwrapped[index] {
            opened[accessibility.code] = ItemKeys(metadata: keys[2 * index], secret: keys[2 * index + 1])
        }
        return opened
    }

    // MARK: Using keys

    /// The keys of `accessibility`'s class. Fails with `interactionNotAllowed` while the class
    /// is locked, and with `authenticationFailed` for `WhenPasscodeSetThisDeviceOnly` when the
    /// store has no passphrase (Apple's rule).
    func itemKeys(for accessibility: Accessibility, in db: Database) throws -> ItemKeys {
        if let keys = try openedKeys(accessibility) { return keys }
        if state.withLock({ $0.damagedClasses[accessibility.code] != nil }) {
            throw SecStoreError.damagedClassKey(accessibility)
        }
        if accessibility.staysUnlockedAfterFirstUnlock, let classKey = firstUnlock.load(accessibility) {
            let keys = try ItemKeys(classKey: classKey)
            state.withLock { state in
                state.keys[accessibility.code] = keys
                state.borrowedFromKeyring.insert(accessibility.code)
            }
            return keys
        }
        // Another process may have removed the passphrase or created this class's key; and
        // a shared unlock is only for the key epoch it was shared in: read the rows again once.
        try reloadIfChanged(db)
        if let keys = try readableKeys(accessibility) { return keys }
        // `secstore unlock --for` shared it: used, never kept, so it goes when the session does.
        if let classKey = firstUnlock.loadSession(accessibility, epoch: state.withLock({ $0.epoch })) {
            return try ItemKeys(classKey: classKey)
        }
        if accessibility == .whenPasscodeSetThisDeviceOnly && !state.withLock({ $0.passphraseSet }) {
            throw SecStoreError(.authenticationFailed, "Items with accessibility whenPasscodeSetThisDeviceOnly need a passphrase on the store. Set one (`secstore passphrase set`) first.")
        }
        throw SecStoreError.locked(accessibility)
    }

    /// ``itemKeys(for:in:)`` for a search that holds its connection outside GRDB's queue: it
    /// enters the queue only when the keys are not open yet (``SearchConnection``).
    func itemKeys(for accessibility: Accessibility, on connection: SearchConnection) throws -> ItemKeys {
        if let keys = try openedKeys(accessibility) { return keys }
        return try connection.withDatabase { db in try itemKeys(for: accessibility, in: db) }
    }

    /// The class's keys when they are open already (a use, for the auto-lock), without the database.
    private func openedKeys(_ accessibility: Accessibility) throws -> ItemKeys? {
        guard let keys = try readableKeys(accessibility) else { return nil }
        autoLock?.touch()
        return keys
    }

    /// Reads the key rows again when another process changed them since this vault last
    /// did. Returns true when it did.
    @discardableResult
    func reloadIfChanged(_ db: Database) throws -> Bool {
        let epoch = try storedEpoch(db)
        guard epoch != state.withLock({ $0.epoch }) else { return false }
        try reload(db)
        return true
    }

    /// `store.keyEpoch`: bumped by every process that changes the key rows. A cached statement
    /// read through ``SQLiteRows``: every write and whole-store scan asks.
    ///
    /// The counter starts at 0 and only grows, one step per change, so anything else (a
    /// negative value, a real or a text, or the last integer, past which a bump would turn
    /// it into a real) is damage: a vault that took it would mistake its own reading for an
    /// older one, and report every class as locked while `verify` found nothing wrong.
    func storedEpoch(_ db: Database) throws -> Int64 {
        var epoch: Int64?
        try SQLiteRows.forEach(try db.cachedStatement(sql: "SELECT keyEpoch FROM store"), arguments: [], in: db) { columns in
            epoch = columns.storedInteger(0)
            return false
        }
        guard let epoch, epoch >= 0, epoch < Int64.max else {
            throw SecStoreError(.corruptData, "The store \(database.path)'s key epoch (store.keyEpoch) is not a counter SecStore writes: the file was damaged or altered. Restore it from a backup (`secstore import`).")
        }
        return epoch
    }

    /// Confirms, inside a write transaction, that `accessibility`'s key still exists in the
    /// file: another process may have removed the passphrase and with it that class.
    func checkClassExists(_ accessibility: Accessibility, in db: Database) throws {
        guard accessibility == .whenPasscodeSetThisDeviceOnly else { return }
        if try KeyRecord.fetch(db, name: KeyRecord.name(for: accessibility)) == nil {
            state.withLock { $0.keys[accessibility.code] = nil }
            throw SecStoreError(.authenticationFailed, "The store's passphrase was removed, and with it the whenPasscodeSetThisDeviceOnly class. Set a passphrase again to use it.")
        }
    }

    /// The keys of `accessibility`'s class as a read would find them right now (held, opened,
    /// taken from the first-unlock keyring or from a shared unlock), or `nil` when the class is
    /// locked, needs a passphrase the store lacks, or has a damaged key row: for counting what
    /// could be read (``SecretStore/statistics()``), where "locked" must mean what a read says.
    func keysIfReadable(_ accessibility: Accessibility, in db: Database) throws -> ItemKeys? {
        do {
            return try itemKeys(for: accessibility, in: db)
        } catch let error as SecStoreError where [.interactionNotAllowed, .authenticationFailed, .corruptData].contains(error.code) {
            return nil
        }
    }

    /// Whether `accessibility`'s class is readable as far as the key rows read so far tell,
    /// without opening its key: for choosing which classes' rows to look at, where a class
    /// whose row then fails authentication is found when its first row is opened.
    func mayRead(_ accessibility: Accessibility) -> Bool {
        state.withLock { state in
            state.keys[accessibility.code] != nil
                || (state.unopened[accessibility.code] != nil && state.damagedClasses[accessibility.code] == nil)
        }
    }

    /// The classes whose key row is damaged, with what is wrong (`verify`): the rows the key
    /// table's rules refused when this handle last read them, and every device-protected row
    /// that fails authentication now, whether or not this handle has opened its class (a row
    /// damaged after its class was opened still shows).
    func damagedClasses() throws -> [Accessibility: String] {
        let (rows, epoch) = state.withLock { ($0.deviceRows, $0.epoch) }
        let failed = try rows.filter { try $0.value.withUnwrapped(with: classWrapKey, storeID: storeID, { _ in }) == nil }.keys
        return state.withLock { state in
            // A reload in between read other rows: its reading stands.
            if state.epoch == epoch {
                for code in failed {
                    state.damagedClasses[code] = "failed authentication"
                    state.unopened[code] = nil
                }
            }
            return Dictionary(uniqueKeysWithValues: state.damagedClasses.compactMap { code, problem in
                Accessibility(code: code).map { ($0, problem) }
            })
        }
    }
}
