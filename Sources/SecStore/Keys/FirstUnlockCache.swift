import Logging
import Foundation
import Synchronization

/// Where the class keys of `AfterFirstUnlock` items wait between processes after the
/// first unlock since boot.
///
/// ```swift
/// var options = SecretStore.Options()
/// options.firstUnlockCache = .processMemory   // no kernel keyring in this container
/// ```
public enum FirstUnlockCache: Sendable, Hashable, CustomStringConvertible {
    /// The kernel user keyring, and process memory when the kernel refuses (the default).
    /// `SECSTORE_KEYRING=off` in the environment forces ``processMemory``.
    case automatic
    /// The kernel user keyring only: shared by the user's processes, gone at reboot.
    case kernelKeyring
    /// This process's memory only: gone when the process exits.
    case processMemory

    /// The backend's name for messages: `automatic`, `kernel user keyring` or `process memory`.
    public var description: String {
        switch self {
        case .automatic: "automatic"
        case .kernelKeyring: "kernel user keyring"
        case .processMemory: "process memory"
        }
    }
}

/// Stores unwrapped `AfterFirstUnlock` class keys, sealed under a key derived from the
/// master key so the keyring entry alone opens nothing.
final class FirstUnlockStore: Sendable {
    private let storeID: [UInt8]
    private let sealingKey: SecureBytes
    private let useKernel: Mutex<Bool>
    private let logger: Logger

    private static let processWide = Mutex<[String: [UInt8]]>([:])
    private static let fallbackWarning = Mutex(false)

    init(storeID: [UInt8], masterKey: SecureBytes, mode: FirstUnlockCache, logger: Logger) throws {
        self.logger = logger
        self.storeID = storeID
        sealingKey = try KeyDerivation.subkey(of: masterKey, id: 3, context: "SSKRWRAP")
        let environmentDisables = ProcessInfo.processInfo.environment["SECSTORE_KEYRING"] == "off"
        useKernel = Mutex(mode == .kernelKeyring || (mode == .automatic && !environmentDisables))
    }

    /// Which backend is in use now (the automatic mode may have fallen back).
    var backend: FirstUnlockCache { useKernel.withLock { $0 } ? .kernelKeyring : .processMemory }

    /// What an entry holds. Each has its own name and its own associated data, so one
    /// cannot be passed off as another.
    private enum Entry {
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

    private func name(_ entry: Entry) -> String {
        let prefix = "secstore:" + Hex.string(storeID) + ":"
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
        _ = classKey.withUnsafeBytes { put(.firstUnlock(accessibility), Array($0), timeout: nil) }
    }

    func load(_ accessibility: Accessibility) -> SecureBytes? {
        guard var plain = get(.firstUnlock(accessibility)) else { return nil }
        defer { Wipe.bytes(&plain) }
        return try? plain.withUnsafeBytes { try SecureBytes(copying: $0) }
    }

    func remove(_ accessibility: Accessibility) {
        delete(.firstUnlock(accessibility))
    }

    // MARK: Session unlock (`secstore unlock --for`)

    /// Shares `classKey` until `expiry`. The kernel drops the entry then; the expiry sealed
    /// inside it is checked on every load too, so a process-memory fallback expires as well.
    /// Returns false when the entry could not be shared with other processes.
    @discardableResult
    func publishSession(_ classKey: SecureBytes, for accessibility: Accessibility, until expiry: Date, epoch: Int64) -> Bool {
        classKey.withUnsafeBytes { put(.session(accessibility, epoch: epoch), Self.stamped(expiry, Array($0)), timeout: Self.seconds(until: expiry)) }
    }

    /// A shared class key that has not expired, or nil.
    func loadSession(_ accessibility: Accessibility, epoch: Int64, now: Date = Date()) -> SecureBytes? {
        guard var plain = get(.session(accessibility, epoch: epoch)) else { return nil }
        defer { Wipe.bytes(&plain) }
        guard let body = Self.unexpired(plain, now: now) else {
            delete(.session(accessibility, epoch: epoch))
            return nil
        }
        return try? body.withUnsafeBytes { try SecureBytes(copying: $0) }
    }

    /// Records that the passphrase was proven at `time`, readable by the user's processes
    /// until `expiry`.
    func publishPresence(at time: Date, until expiry: Date, epoch: Int64) {
        // Whole seconds, rounded down: a proof must never read as later than it was.
        let proven = Date(timeIntervalSince1970: time.timeIntervalSince1970.rounded(.down))
        put(.presence(epoch: epoch), Self.stamped(expiry, Self.stamped(proven, [])), timeout: Self.seconds(until: expiry))
    }

    /// When a shared session last proved the passphrase, unless that session expired or
    /// the keys changed since (another epoch).
    func sharedPresence(epoch: Int64, now: Date = Date()) -> Date? {
        guard let plain = get(.presence(epoch: epoch)), let body = Self.unexpired(plain, now: now), body.count == 8 else { return nil }
        return Self.date(body)
    }

    /// Takes back every entry of a session unlock, as `secstore lock` and every passphrase
    /// change do. (The names carry no epoch, so any epoch's entries go.)
    func removeSession() {
        for accessibility in Accessibility.allCases { delete(.session(accessibility, epoch: 0)) }
        delete(.presence(epoch: 0))
    }

    private static func bytes(_ epoch: Int64) -> [UInt8] {
        withUnsafeBytes(of: epoch.littleEndian) { Array($0) }
    }

    // MARK: Entries

    @discardableResult
    private func put(_ entry: Entry, _ plain: [UInt8], timeout: UInt32?) -> Bool {
        var plain = plain
        defer { Wipe.bytes(&plain) }
        let sealed = Array(AEAD.seal(plain, key: sealingKey, associatedData: associatedData(entry)))
        let name = name(entry)
        if useKernel.withLock({ $0 }) {
            do {
                try KernelKeyring.add(description: name, payload: sealed, timeout: timeout)
                return true
            } catch {
                fallBack(after: error)
            }
        }
        Self.processWide.withLock { $0[name] = sealed }
        return false
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

    /// `date` as 8 little-endian bytes of whole seconds since 1970, then `body`.
    private static func stamped(_ date: Date, _ body: [UInt8]) -> [UInt8] {
        withUnsafeBytes(of: UInt64(max(0, date.timeIntervalSince1970.rounded(.up))).littleEndian) { Array($0) } + body
    }

    private static func date(_ bytes: some Collection<UInt8>) -> Date {
        let seconds = bytes.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The body after the expiry stamp, or nil once the stamp has passed.
    private static func unexpired(_ plain: [UInt8], now: Date) -> [UInt8]? {
        guard plain.count >= 8, date(plain) > now else { return nil }
        return Array(plain.dropFirst(8))
    }

    private static func seconds(until expiry: Date) -> UInt32 {
        UInt32(clamping: Int(max(1, expiry.timeIntervalSinceNow.rounded(.up))))
    }

    private func fallBack(after error: KernelKeyring.Failure) {
        guard error.meansUnavailable else { return }
        useKernel.withLock { $0 = false }
        let first = Self.fallbackWarning.withLock { warned in
            defer { warned = true }
            return !warned
        }
        if first {
            logger.warning("the kernel keyring is unavailable (errno \(error.errno)); AfterFirstUnlock keys last only as long as this process")
        }
    }
}
