import SecStore

/// Why a credential helper could not do what it was asked. Messages never contain a
/// secret: a malformed line is named by its number, never quoted.
///
/// ```swift
/// do {
///     _ = try GitCredential(parsing: Array("no equals sign\n".utf8))
/// } catch {
///     print(error.kind, error.message)   // malformedInput "line 1 is not key=value"
/// }
/// ```
///
/// The bridge's functions use typed throws, so a `catch` after them already has a
/// `BridgeError`. Catch it whole and test it inside: a conditional catch of a typed error
/// (`catch let error as BridgeError where error.kind == .store { print(error.storeError ?? "") }`)
/// can make Swift 6.3's compiler crash in SILGen ("Found ownership error?!",
/// swiftlang/swift#86924, fixed by swiftlang/swift#90330).
public struct BridgeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, for the helpers' exit statuses and protocol messages.
    ///
    /// ```swift
    /// do {
    ///     _ = try credentials.get(GitCredential(protocol: "https", host: "example.com"))
    /// } catch {                                     // typed throws: a BridgeError
    ///     if error.kind == .store { print(error.storeError?.code.name ?? "unknown") }   // "interactionNotAllowed", …
    /// }
    /// ```
    public enum Kind: Sendable, Equatable {
        /// The client sent something the protocol does not allow (a line without `=`, a
        /// NUL byte, text that is not UTF-8, a port that is not a number, bad JSON, …).
        case malformedInput
        /// The client sent more than ``BoundedInput/maximumByteCount`` bytes.
        case inputTooLarge
        /// A field the operation needs is missing (a store without a password, …).
        case incomplete
        /// The operation would touch too much (an erase that names nothing).
        case refused
        /// The store refused or failed: locked, damaged, unavailable. ``BridgeError/storeError`` says why.
        case store
    }

    /// The kind of failure.
    public let kind: Kind
    /// What went wrong, in one line, without any secret.
    public let message: String
    /// The store's error, when ``kind`` is ``Kind/store``.
    public let storeError: SecStoreError?

    /// An error of `kind` that says `message`.
    ///
    /// ```swift
    /// throw BridgeError(.incomplete, "a credential needs a password")
    /// ```
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
        self.storeError = nil
    }

    /// The store's failure, with advice for the ones a user can fix (a locked store).
    ///
    /// ```swift
    /// catch let error as SecStoreError { throw BridgeError(store: error) }
    /// ```
    public init(store error: SecStoreError) {
        kind = .store
        storeError = error
        switch error.code {
        case .interactionNotAllowed:
            message = "the SecStore store is locked: unlock it for a while with `secstore unlock --for 8h`, or name a private passphrase file in SECSTORE_PASSPHRASE_FILE"
        case .authenticationFailed:
            message = "the SecStore store refused the passphrase (SECSTORE_PASSPHRASE_FILE): \(error.message)"
        default:
            message = error.message
        }
    }

    /// The message.
    public var description: String { message }

    /// Runs `body`, turning a ``SecStoreError`` into a ``BridgeError`` of kind ``Kind/store``.
    static func catchingStore<T>(_ body: () throws -> T) throws(BridgeError) -> T {
        do {
            return try body()
        } catch let error as BridgeError {
            throw error
        } catch let error as SecStoreError {
            throw BridgeError(store: error)
        } catch {
            throw BridgeError(.store, "unexpected failure: \(type(of: error))")
        }
    }
}
