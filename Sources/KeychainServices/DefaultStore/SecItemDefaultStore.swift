import Foundation
import SecStore
import Synchronization

/// The process-wide store behind `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` and
/// `SecItemDelete`, as the keychain is behind them on Apple systems.
///
/// The store is opened on the first SecItem call, from ``configure(_:)``'s configuration or
/// else from the environment (``Configuration/environment(_:)``: `SECSTORE_PATH`,
/// `SECSTORE_ENTITLEMENTS`, `SECSTORE_DEVICE_KEY`). Every call may come from any thread.
/// When the store cannot be opened, each call returns the failure's `OSStatus` (for
/// example `errSecNotAvailable`) and the next call tries again.
///
/// ```swift
/// // Optional: configure before the first SecItem call; otherwise the environment decides.
/// try SecItemDefaultStore.configure(.init(storeURL: URL(filePath: "/var/lib/myapp/keychain.secstore"),
///                                         applicationIdentifier: "ABCDE12345.com.example.myapp"))
/// let status = SecItemAdd(attributes as CFDictionary, nil)
/// ```
public enum SecItemDefaultStore {
    /// Where the next opening of the store takes its configuration from.
    private enum Source {
        /// ``Configuration/environment(_:)`` of these variables, or of the process's when nil.
        case environment([String: String]?)
        case configuration(Configuration)
    }

    private struct State {
        var source = Source.environment(nil)
        var store: SecretStore?
    }

    /// Held while the store is read or replaced, and while it opens. The opening calls the
    /// configuration's logger: a handler that calls a SecItem function or this type from that
    /// thread would take the lock again (Swift's `Mutex` is not recursive: the process
    /// stopped), so ``store()`` and ``configure(_:)`` throw `invalidParameter` there, and
    /// ``reconfigure(_:)``, ``reconfigure(environment:)`` and ``use(_:)`` take effect when the
    /// opening ends (`HeldMutex` knows its holder).
    private static let state = HeldMutex(State())
    /// What the opening thread asked for in the meantime, applied when the opening ends.
    private static let changedWhileOpening = Mutex<State?>(nil)
    /// `state.store`, copied here whenever it changes (while `state` is held), so that a SecItem
    /// call on an open store takes only this lock. `state`'s `HeldMutex` is generic code of
    /// another module, which the optimizer does not specialize here: about 2.3k instructions a
    /// call in run-time metadata look-ups, where this `Mutex` costs a few dozen
    /// (docs/performance.md, fourteenth session).
    private static let openStore = Mutex<SecretStore?>(nil)

    private static let calledWhileOpening = SecStoreError(.invalidParameter, "A SecItem function or SecItemDefaultStore was called while the default store was being opened, from the opening itself (for example by a logger handler the store logs to). Call it after the SecItem call that opens the store has returned.")

    /// Makes `state`'s store the one SecItem calls use without taking `state`'s lock; called
    /// with that lock held, whenever `state.store` may have changed.
    private static func publish(_ state: State) {
        openStore.withLock { $0 = state.store }
    }

    /// Replaces the state, or, from the opening thread (which holds it), leaves it for the
    /// opening to apply.
    private static func replaceState(_ new: State) {
        if state.isHeldByCurrentThread {
            changedWhileOpening.withLock { $0 = new }
        } else {
            // Throws only for the holding thread, ruled out above.
            try? state.holding(reentered: calledWhileOpening) { state in
                state = new
                publish(state)
            }
        }
    }

    /// Sets the configuration of the default store, before the first SecItem call.
    ///
    /// ```swift
    /// try SecItemDefaultStore.configure(.init(storeURL: storeURL, applicationIdentifier: "ABCDE12345.com.example.app"))
    /// ```
    ///
    /// - Throws: `SecStoreError` (`errSecParam`) when the store is already open: the SecItem
    ///   functions have been used. Use ``reconfigure(_:)`` to switch stores on purpose.
    public static func configure(_ configuration: Configuration) throws {
        try state.holding(reentered: calledWhileOpening) { state in
            if let store = state.store {
                throw SecStoreError(.invalidParameter, "The default store is already open at \(store.url.path). Call SecItemDefaultStore.configure(_:) before the first SecItem call, or reconfigure(_:) to switch stores.")
            }
            state.source = .configuration(configuration)
        }
    }

    /// Closes the default store, if open, and makes the next SecItem call open the store
    /// `configuration` describes. Calls already running finish on the old store.
    ///
    /// ```swift
    /// SecItemDefaultStore.reconfigure(.init(storeURL: temporaryDirectory.appending(path: "test.secstore"),
    ///                                       applicationIdentifier: "ABCDE12345.com.example.tests"))
    /// ```
    public static func reconfigure(_ configuration: Configuration) {
        replaceState(State(source: .configuration(configuration)))
    }

    /// Closes the default store, if open, and makes the next SecItem call configure it
    /// from `environment` (by default the process's), as ``Configuration/environment(_:)``
    /// describes. A failure to read the configuration is then the status of that call.
    ///
    /// ```swift
    /// SecItemDefaultStore.reconfigure(environment: ["SECSTORE_PATH": "/tmp/test.secstore"])
    /// ```
    public static func reconfigure(environment: [String: String]? = nil) {
        replaceState(State(source: .environment(environment)))
    }

    /// Makes `store` the default store, replacing any other; for a store the process opened
    /// itself (to unlock it with a passphrase first, for example).
    ///
    /// ```swift
    /// let store = try SecretStore(at: url, options: options)
    /// try store.unlock(passphrase: passphrase)
    /// SecItemDefaultStore.use(store)
    /// ```
    public static func use(_ store: SecretStore) {
        let configuration = Configuration(storeURL: store.url, options: store.options)
        replaceState(State(source: .configuration(configuration), store: store))
    }

    /// The default store, opened now if it is not open yet.
    ///
    /// ```swift
    /// let store = try SecItemDefaultStore.store()
    /// try store.unlock(passphrase: passphrase)
    /// ```
    ///
    /// - Throws: `SecStoreError` when the configuration cannot be read or the store cannot
    ///   be opened; its `status` is what the SecItem functions return meanwhile.
    public static func store() throws -> SecretStore {
        if let store = openStore.withLock({ $0 }) { return store }
        return try state.holding(reentered: calledWhileOpening) { state in
            // Declared first, so it runs last: after a change made during the opening is applied.
            defer { publish(state) }
            if let store = state.store { return store }
            let configuration = switch state.source {
            case .configuration(let configuration): configuration
            case .environment(let environment): try Configuration.environment(environment ?? ProcessInfo.processInfo.environment)
            }
            // Opening under the lock: concurrent first calls wait for one opening instead of
            // each creating the store file.
            defer {
                // A reconfigure or use from inside the opening applies now, as it would have
                // after it: this call still answers from the store it opened.
                if let changed = changedWhileOpening.withLock({ changed in defer { changed = nil }; return changed }) {
                    state = changed
                }
            }
            let store = try SecretStore(at: configuration.storeURL, options: configuration.options)
            if let passphraseFile = configuration.passphraseFile, try store.lockState != .noPassphrase {
                try store.unlock(passphrase: try PassphraseFile.passphrase(at: passphraseFile))
            }
            state.store = store
            return store
        }
    }
}
