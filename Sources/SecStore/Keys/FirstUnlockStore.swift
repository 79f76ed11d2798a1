import Logging
import Foundation
import Synchronization

/// Stores unwrapped `AfterFirstUnlock` class keys, sealed under a key derived from the
/// master key so the keyring entry alone opens nothing.
///
/// Honesty about where a key went: every key the kernel refuses stays in process memory,
/// and ``refusal`` says why, so no caller reports a key as shared that is not. Within one
/// attempt (``beginSharing(storeURL:deviceKeyURL:)``: an unlock or a passphrase change) the
/// first refusal ends the attempt's use of the kernel — all or nothing: the first-unlock
/// entries the attempt added come back to process memory (those that were there before stay,
/// so a refused attempt never ends an earlier first unlock), a shared unlock's are removed.
///
/// Every entry of the store is linked in the store's own keyring, `secstore:<store id>`, linked
/// in the user keyring; an attempt finds (or makes) it once and links each of its entries
/// there. So `secstore lock` (``removeAll()``) ends every unlock at once by invalidating that one
/// keyring: an unlock still under way when the keyring goes can link nothing more into it
/// (``KernelKeyring/Failure/keyringGone``), and what it had linked went with the keyring. A lock
/// that removed entries one by one left an unlock that went on half in force.
///
/// Each entry is put holding the user's keyring lock, shared (``KeyringLock``), from finding
/// the store's keyring to linking the entry: `secstore keyring prune`, which removes a store's
/// keyring only while it holds no key, cannot remove it between an attempt finding it empty
/// and linking its first key there.
final class FirstUnlockStore: Sendable {
    private let storeID: [UInt8]
    private let sealingKey: SecureBytes
    private let useKernel: Mutex<Bool>
    let logger: Logger
    /// The refusal that turned the kernel keyring off for good (it is unavailable here).
    private let disabledBy = Mutex<KernelKeyring.Failure?>(nil)
    let attempt = Mutex(Attempt())
    let location = Mutex<Location?>(nil)

    private static let processWide = Mutex<[String: [UInt8]]>([:])
    private static let fallbackWarning = Mutex(false)

    /// One unlock or passphrase change: what it put in the kernel, and whether it was refused.
    struct Attempt {
        var refusal: KernelKeyring.Failure?
        /// The store's keyring this attempt links its entries into, once found or made: a
        /// `secstore lock` that removes it meanwhile ends the attempt.
        var keyring: Int32?
        /// First-unlock entries this attempt added to the kernel keyring (not those it
        /// replaced), by name and serial: the serial, so that taking them back never touches
        /// another process's entry of the same name.
        var addedFirstUnlock: [(name: String, serial: Int32)] = []
    }

    /// Where the store file and its device key are, recorded beside the store's entries so
    /// that `secstore keyring prune` can tell a store that is gone from one that is elsewhere.
    struct Location {
        var storePath: String
        var deviceKeyPath: String
        /// Whether this attempt wrote the record already.
        var recorded = false
    }

    /// `sealingKey`: ``MasterSubkeys/firstUnlockKey``.
    init(storeID: [UInt8], sealingKey: SecureBytes, mode: FirstUnlockCache, logger: Logger) {
        self.logger = logger
        self.storeID = storeID
        self.sealingKey = sealingKey
        useKernel = Mutex(mode == .kernelKeyring || (mode == .automatic && !FirstUnlockCache.isTurnedOffByEnvironment))
    }

    /// Which backend holds the keys this handle shared last: the kernel keyring, or process
    /// memory when the kernel is off, unavailable, or refused the last attempt (a full quota).
    var backend: FirstUnlockCache {
        useKernel.withLock { $0 } && attempt.withLock({ $0.refusal }) == nil ? .kernelKeyring : .processMemory
    }

    /// Why the last attempt's keys are not (all) in the kernel keyring, or why the kernel
    /// keyring is not used at all here; nil when it took every key (or nothing was tried).
    var refusal: KeyringRefusal? {
        (attempt.withLock { $0.refusal } ?? disabledBy.withLock { $0 })?.refusal
    }

    /// Starts an attempt to share keys (an unlock, a passphrase change): forgets the last
    /// attempt's refusal, and records `storeURL` and `deviceKeyURL` beside the first entry
    /// the attempt puts in the kernel keyring.
    func beginSharing(storeURL: URL, deviceKeyURL: URL) {
        let storePath = Self.finalPath(of: storeURL.absoluteURL.standardizedFileURL.path)
        let deviceKeyPath = deviceKeyURL.absoluteURL.standardizedFileURL.path
        location.withLock { $0 = Location(storePath: storePath, deviceKeyPath: deviceKeyPath) }
        attempt.withLock { $0 = Attempt() }
    }

    /// What an entry holds. Each has its own name and its own associated data, so one
    /// cannot be passed off as another.
    enum Entry {
        /// An `AfterFirstUnlock` class key, until reboot or `secstore lock`.
        case firstUnlock(Accessibility)
        /// Any passphrase-protected class key, shared by `secstore unlock --for`, until it
        /// expires; bound to the store's key epoch, so a passphrase set, changed or removed
        /// since makes it unusable.
        case session(Accessibility, epoch: Int64)
        /// When the passphrase was last proven by `secstore unlock` (the user-presence proof),
        /// bound to the key epoch as the session keys are.
        case presence(epoch: Int64)
    }

    /// `secstore:<store id in hex>:`, the start of every entry of this store.
    var prefix: String { FirstUnlockCache.entryPrefix + Hex.string(storeID) + ":" }

    /// `secstore:<store id in hex>`, the store's keyring, which holds every entry of the store.
    var keyringName: String { FirstUnlockCache.storeKeyringName(storeIDHex: Hex.string(storeID)) }

    private func name(_ entry: Entry) -> String {
        switch entry {
        case .firstUnlock(let accessibility): return prefix + accessibility.rawValue
        case .session(let accessibility, _): return prefix + "session:" + accessibility.rawValue
        case .presence: return prefix + "presence"
        }
    }

    private func associatedData(_ entry: Entry) -> [UInt8] {
        switch entry {
        case .firstUnlock(let accessibility):
            Array("secstore/first-unlock/v1".utf8) + storeID + Array(accessibility.rawValue.utf8)
        case .session(let accessibility, let epoch):
            Array("secstore/session-unlock/v1".utf8) + storeID + Array(accessibility.rawValue.utf8) + Self.bytes(epoch)
        case .presence(let epoch):
            Array("secstore/presence/v1".utf8) + storeID + Self.bytes(epoch)
        }
    }

    func publish(_ classKey: SecureBytes, for accessibility: Accessibility) {
        var plain = classKey.withUnsafeBytes { Array($0) }
        _ = put(.firstUnlock(accessibility), &plain, timeout: nil)
    }

    /// A class key shared since boot, or nil. An entry of any other length than a key's is
    /// not one (its keys would be derived from too few bytes).
    func load(_ accessibility: Accessibility) -> SecureBytes? {
        guard var plain = get(.firstUnlock(accessibility)) else { return nil }
        defer { Wipe.bytes(&plain) }
        guard plain.count == KeyDerivation.keyByteCount else { return nil }
        return try? plain.withUnsafeBytes { try SecureBytes(copying: $0) }
    }

    func remove(_ accessibility: Accessibility) {
        delete(.firstUnlock(accessibility))
    }

    /// Whether `accessibility`'s first-unlock entry is still in the kernel keyring: one
    /// search, no read. True when the entries live in process memory (this process's own,
    /// which no other process can take back).
    func isPublished(_ accessibility: Accessibility) -> Bool {
        guard useKernel.withLock({ $0 }) else { return true }
        return KernelKeyring.exists(description: name(.firstUnlock(accessibility)))
    }

    // MARK: Session unlock (`secstore unlock --for`)

    /// Shares `classKey` until `expiry`. The kernel drops the entry then; the expiry sealed
    /// inside it is checked on every load too, so a process-memory fallback expires as well.
    /// Returns false when the entry could not be shared with other processes.
    @discardableResult
    func publishSession(_ classKey: SecureBytes, for accessibility: Accessibility, until expiry: Date, epoch: Int64) -> Bool {
        // Stamped straight from the key's guarded bytes: no other copy of the key is made.
        var plain = classKey.withUnsafeBytes { Self.stamped(expiry, $0) }
        return put(.session(accessibility, epoch: epoch), &plain, timeout: Self.seconds(until: expiry))
    }

    /// A shared class key that has not expired, or nil.
    func loadSession(_ accessibility: Accessibility, epoch: Int64, now: Date = Date()) -> SecureBytes? {
        guard var plain = get(.session(accessibility, epoch: epoch)) else { return nil }
        defer { Wipe.bytes(&plain) }
        guard Self.isUnexpired(plain, now: now) else {
            delete(.session(accessibility, epoch: epoch))
            return nil
        }
        // The expiry stamp and a key: anything else is not a shared class key.
        guard plain.count == 8 + KeyDerivation.keyByteCount else { return nil }
        // The key after the stamp, copied from the buffer wiped above (never copied elsewhere).
        return try? plain.withUnsafeBytes { try SecureBytes(copying: UnsafeRawBufferPointer(rebasing: $0.dropFirst(8))) }
    }

    /// Records that the passphrase was proven at `time`, readable by the user's processes
    /// until `expiry`.
    func publishPresence(at time: Date, until expiry: Date, epoch: Int64) {
        // Whole seconds, rounded down: a proof must never read as later than it was.
        let proven = Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down))
        var plain = Self.stamped(expiry, Self.stamped(proven, []))
        let shared = put(.presence(epoch: epoch), &plain, timeout: Self.seconds(until: expiry))
        // All or nothing: a shared unlock whose proof the kernel refused is no shared unlock.
        if !shared, attempt.withLock({ $0.refusal }) != nil { withdrawSession() }
    }

    /// When a shared session last proved the passphrase, unless that session expired or
    /// the keys changed since (another epoch).
    func sharedPresence(epoch: Int64, now: Date = Date()) -> Date? {
        guard let plain = get(.presence(epoch: epoch)), Self.isUnexpired(plain, now: now), plain.count == 16 else { return nil }
        return Self.date(plain.dropFirst(8))
    }

    /// Takes back every entry of a session unlock, as `secstore lock` and every passphrase
    /// change do. (The names carry no epoch, so any epoch's entries go.)
    func removeSession() {
        for accessibility in Accessibility.allCases { delete(.session(accessibility, epoch: 0)) }
        delete(.presence(epoch: 0))
    }

    /// All or nothing, after the kernel refused part of this attempt's shared unlock: takes its
    /// session entries back (``removeSession()``). When the refusal is that a lock removed the
    /// store's keyring meanwhile, nothing of the attempt is left in the kernel, and entries of
    /// those names there now are a later unlock's, made after the lock: only this process's
    /// copies go.
    func withdrawSession() {
        guard attempt.withLock({ $0.refusal?.keyringGone }) == true else { return removeSession() }
        let names = Accessibility.allCases.map { name(.session($0, epoch: 0)) } + [name(.presence(epoch: 0))]
        Self.processWide.withLock { copies in
            for name in names { copies.removeValue(forKey: name) }
        }
    }

    private static func bytes(_ epoch: Int64) -> [UInt8] {
        withUnsafeBytes(of: epoch.littleEndian) { Array($0) }
    }

    // MARK: Entries

    /// Seals `plain` and puts it in the kernel keyring, or in process memory when the kernel is
    /// not used or refuses it, then wipes `plain`. Returns whether the kernel took it. In place:
    /// the caller's buffer is the only copy (a parameter copied into a local and wiped there
    /// left the caller's bytes intact).
    @discardableResult
    func put(_ entry: Entry, _ plain: inout [UInt8], timeout: UInt32?) -> Bool {
        defer { Wipe.bytes(&plain) }
        let sealed = Array(AEAD.seal(plain, key: sealingKey, associatedData: associatedData(entry)))
        let name = name(entry)
        // After a refusal, the rest of the attempt stays in process memory (all or nothing).
        if useKernel.withLock({ $0 }), attempt.withLock({ $0.refusal }) == nil {
            // From finding the store's keyring to linking the entry: `keyring prune` does not
            // remove the keyring meanwhile, though it may still hold no key (KeyringLock).
            let held = sharingLock()
            defer { held?.release() }
            do {
                let keyring = try attemptKeyring()
                try recordLocation(in: keyring)
                var isNew = false
                if case .firstUnlock = entry { isNew = !KernelKeyring.exists(description: name) }
                let serial = try KernelKeyring.add(description: name, payload: sealed, timeout: timeout, into: keyring)
                if isNew { attempt.withLock { $0.addedFirstUnlock.append((name, serial)) } }
                // No stale copy may outlive the kernel's (`secstore lock` from another process).
                _ = Self.processWide.withLock { $0.removeValue(forKey: name) }
                return true
            } catch {
                refused(error)
            }
        }
        Self.processWide.withLock { $0[name] = sealed }
        return false
    }

    /// The kernel refused a key: remember why, for this attempt; take back the first-unlock
    /// entries the attempt added (they stay in process memory); stop using the kernel when
    /// it is unavailable altogether.
    private func refused(_ error: KernelKeyring.Failure) {
        let withdrawn = attempt.withLock { attempt -> [(name: String, serial: Int32)] in
            if attempt.refusal == nil { attempt.refusal = error }
            defer { attempt.addedFirstUnlock = [] }
            return attempt.addedFirstUnlock
        }
        for (name, serial) in withdrawn {
            // Gone with the store's keyring when a lock removed it: nothing to take back then.
            if let sealed = try? KernelKeyring.read(serial: serial) {
                Self.processWide.withLock { $0[name] = sealed }
            }
            try? KernelKeyring.invalidate(serial: serial)
        }
        if error.meansUnavailable {
            fallBack(after: error)
        } else {
            logger.warning("the kernel keyring refused a key: \(error.refusal); it is kept in this process only")
        }
    }

    private func get(_ entry: Entry) -> [UInt8]? {
        let name = name(entry)
        var sealed: [UInt8]?
        if useKernel.withLock({ $0 }) {
            do {
                sealed = try KernelKeyring.read(description: name)
            } catch {
                if !error.meansMissing { fallBack(after: error) }
            }
        }
        if sealed == nil { sealed = Self.processWide.withLock { $0[name] } }
        guard let sealed, var opened = try? AEAD.open(sealed, key: sealingKey, associatedData: associatedData(entry)) else {
            return nil
        }
        defer { Wipe.data(&opened) }
        return Array(opened)
    }

    private func delete(_ entry: Entry) {
        let name = name(entry)
        if useKernel.withLock({ $0 }) { KernelKeyring.remove(description: name) }
        _ = Self.processWide.withLock { $0.removeValue(forKey: name) }
    }

    /// Removes every entry of this store — first unlock, shared unlock, presence, location
    /// record, and any other `secstore:<id>:` entry a newer SecStore may write — from the
    /// kernel keyring and from process memory, as a reboot would (`secstore lock`).
    ///
    /// The store's keyring goes first, and with it at once every entry linked in it: an unlock
    /// under way in another process, whatever it had linked there so far, is over, and links
    /// nothing more. Entries straight in the user keyring (an older SecStore's) go one by one.
    func removeAll() {
        let prefix = prefix, keyringName = keyringName
        if useKernel.withLock({ $0 }), let keys = try? KernelKeyring.userKeys() {
            for key in keys where key.type == "keyring" && key.description == keyringName {
                try? KernelKeyring.invalidate(serial: key.serial)
            }
            for key in keys where key.type == "user" && key.description.hasPrefix(prefix) {
                try? KernelKeyring.invalidate(serial: key.serial)
            }
        }
        Self.processWide.withLock { $0 = $0.filter { !$0.key.hasPrefix(prefix) } }
        attempt.withLock { $0 = Attempt() }
        location.withLock { $0?.recorded = false }
    }

    /// `date` as 8 little-endian bytes of whole seconds since 1970, then `body`.
    private static func stamped(_ date: Date, _ body: some Collection<UInt8>) -> [UInt8] {
        var stamped = withUnsafeBytes(of: UInt64(max(0, date.timeIntervalSince1970.rounded(.up))).littleEndian) { Array($0) }
        stamped.reserveCapacity(8 + body.count)   // one buffer: no reallocation leaves a copy behind
        stamped.append(contentsOf: body)
        return stamped
    }

    private static func date(_ bytes: some Collection<UInt8>) -> Date {
        let seconds = bytes.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Whether the expiry stamp at the start of `plain` (the body follows it) has not passed.
    private static func isUnexpired(_ plain: [UInt8], now: Date) -> Bool {
        plain.count >= 8 && date(plain) > now
    }

    private static func seconds(until expiry: Date) -> UInt32 {
        UInt32(clamping: Int(max(1, expiry.timeIntervalSinceNow.rounded(.up))))
    }

    private func fallBack(after error: KernelKeyring.Failure) {
        guard error.meansUnavailable else { return }
        useKernel.withLock { $0 = false }
        disabledBy.withLock { $0 = error }
        let first = Self.fallbackWarning.withLock { warned in
            defer { warned = true }
            return !warned
        }
        if first {
            logger.warning("the kernel keyring is unavailable (errno \(error.errno)); AfterFirstUnlock keys last only as long as this process")
        }
    }
}
