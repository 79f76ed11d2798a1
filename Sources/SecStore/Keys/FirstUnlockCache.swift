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

    private func description(_ accessibility: Accessibility) -> String {
        "secstore:" + Hex.string(storeID) + ":" + accessibility.rawValue
    }

    private func associatedData(_ accessibility: Accessibility) -> [UInt8] {
        Array("secstore/first-unlock/v1".utf8) + storeID + Array(accessibility.rawValue.utf8)
    }

    func publish(_ classKey: SecureBytes, for accessibility: Accessibility) {
        let sealed = Array(classKey.withUnsafeBytes {
            AEAD.seal($0, key: sealingKey, associatedData: associatedData(accessibility))
        })
        let name = description(accessibility)
        if useKernel.withLock({ $0 }) {
            do {
                try KernelKeyring.add(description: name, payload: sealed)
                return
            } catch {
                fallBack(after: error)
            }
        }
        Self.processWide.withLock { $0[name] = sealed }
    }

    func load(_ accessibility: Accessibility) -> SecureBytes? {
        let name = description(accessibility)
        var sealed: [UInt8]?
        if useKernel.withLock({ $0 }) {
            do {
                sealed = try KernelKeyring.read(description: name)
            } catch {
                if !error.meansMissing { fallBack(after: error) }
            }
        }
        if sealed == nil { sealed = Self.processWide.withLock { $0[name] } }
        guard let sealed,
              var plain = try? AEAD.open(sealed, key: sealingKey, associatedData: associatedData(accessibility))
        else { return nil }
        defer { Wipe.data(&plain) }
        return try? plain.withUnsafeBytes { try SecureBytes(copying: $0) }
    }

    func remove(_ accessibility: Accessibility) {
        let name = description(accessibility)
        if useKernel.withLock({ $0 }) { KernelKeyring.remove(description: name) }
        _ = Self.processWide.withLock { $0.removeValue(forKey: name) }
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
