internal import GRDB

extension SecStoreError {
    /// The one translation of the lower layers' errors into ``SecStoreError``, applied at the
    /// public edge: SecStore's own errors pass through; SQLite's become the store's kinds
    /// (``StoreDatabase/translate(_:path:)``); libsodium's (`CryptoFailure`) become
    /// `outOfMemory`, `corruptData` or `storeUnavailable`; anything else — a Foundation file
    /// error, say — is `storeUnavailable` naming its type, never a crash or a silent success.
    package static func translating(_ error: any Error, path: String?) -> SecStoreError {
        switch error {
        case let error as SecStoreError:
            error
        case let failure as CryptoFailure:
            SecStoreError(failure)
        case let error as DatabaseError:
            StoreDatabase.translate(error, path: path ?? "the store")
        default:
            SecStoreError(.storeUnavailable, "\(path.map { "The store \($0)" } ?? "SecStore") could not complete the operation (\(type(of: error))). Check the file and its directory, then retry.")
        }
    }

    init(_ failure: CryptoFailure) {
        switch failure {
        case .outOfSecureMemory:
            self.init(.outOfMemory, "Guarded memory for keys could not be allocated (sodium_malloc). Raise the locked-memory limit (ulimit -l) or free memory, then retry.")
        case .passwordHashingFailed(let limits, let budget?):
            self.init(.outOfMemory, "\(limits) needs \(ArgonMemoryBudget.describe(limits.memoryBytes)) of memory, and this process can have \(budget) now. Free memory or raise the limit, then retry; or retry where there is more memory.")
        case .passwordHashingFailed(let limits, nil):
            self.init(.outOfMemory, "Argon2id could not run with \(limits): not enough memory. Free memory, then retry.")
        case .authenticationFailed, .malformedCiphertext:
            self.init(.corruptData, "Sealed bytes failed authentication: the store was damaged or altered. Run `secstore verify` to list damaged items.")
        case .libraryUnavailable:
            self.init(.storeUnavailable, "libsodium could not start: the system gave it no source of randomness. Check /dev/urandom and getrandom(2).")
        }
    }
}

extension SecStoreError {
    /// Runs the body of a public operation and throws only ``SecStoreError``, translating
    /// anything else once (``translating(_:path:)``). `path` is evaluated only on failure:
    /// this wraps every read.
    package static func catching<T>(path: @autoclosure () -> String?, _ body: () throws -> T) throws(SecStoreError) -> T {
        do {
            return try body()
        } catch {
            throw translating(error, path: path())
        }
    }
}

extension SecretStore {
    /// Runs the body of a public operation of this store and throws only ``SecStoreError``.
    package func guarded<T>(_ body: () throws -> T) throws(SecStoreError) -> T {
        try SecStoreError.catching(path: engine.database.path, body)
    }
}
