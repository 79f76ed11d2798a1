/// The error every SecStore operation throws: what went wrong, what to do about it, and
/// the Apple `OSStatus` the same failure has on Apple systems.
///
/// ```swift
/// do {
///     try store.add(item)
/// } catch let error as SecStoreError where error.code == .duplicateItem {
///     try store.update(matching: query, with: ItemChanges(data: item.data))
/// }
/// ```
///
/// Messages never contain a secret or a key.
public struct SecStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure: compare it with the ``Code`` constants, such as ``Code/duplicateItem``.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String

    /// An error of kind `code`, whose `message` says what went wrong and what to do about it
    /// (and never contains a secret or a key).
    ///
    /// ```swift
    /// throw SecStoreError(.invalidParameter, "The account is empty. Give the item an account.")
    /// ```
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// An error about one item: `item` names it and `part`, when known, says which of its
    /// sealed parts failed, so callers never parse the message.
    ///
    /// ```swift
    /// catch let error as SecStoreError where error.code == .corruptData && error.part == .secret { … }
    /// ```
    public init(_ code: Code, _ message: String, item: PersistentReference?, part: ItemPart? = nil) {
        self.init(code, message)
        self.item = item
        self.part = part
    }

    /// The item the failure concerns, when it concerns one (a damaged item, for example).
    public private(set) var item: PersistentReference?
    /// Which sealed part of ``item`` failed, when the failure is about one.
    public private(set) var part: ItemPart?

    /// The two sealed parts of an item.
    ///
    /// ```swift
    /// do {
    ///     _ = try store.items(matching: Query(service: "api", returning: .data))
    /// } catch let error as SecStoreError where error.code == .corruptData && error.part == .secret {
    ///     try owner.removeDamagedItem(error.item!)   // its attributes are sound, its secret is not
    /// }
    /// ```
    public enum ItemPart: String, Sendable, Hashable {
        /// The sealed attributes (`metadata`).
        case attributes
        /// The sealed secret.
        case secret
    }

    /// The `OSStatus` of this failure (`errSecItemNotFound` is -25300, …).
    public var status: Int32 { code.status }

    /// The message, then the code's name and `OSStatus`:
    /// "No item matches the query. [itemNotFound, OSStatus -25300]".
    public var description: String { "\(message) [\(code.name), OSStatus \(status)]" }

    /// A kind of failure. A struct rather than an enum, so kinds can be added later.
    ///
    /// ```swift
    /// do { _ = try store.data(forAccount: "alice") }
    /// catch let error as SecStoreError where error.code == .interactionNotAllowed { /* locked */ }
    /// ```
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short stable name, used by the `secstore` tool's JSON output.
        public let name: String
        /// The Apple `OSStatus` for this kind.
        public let status: Int32

        /// The code's ``name``, such as `itemNotFound`.
        public var description: String { name }

        /// No item matched (`errSecItemNotFound`).
        public static let itemNotFound = Code(name: "itemNotFound", status: SecurityStatus.itemNotFound.value)
        /// An item with the same primary key exists (`errSecDuplicateItem`).
        public static let duplicateItem = Code(name: "duplicateItem", status: SecurityStatus.duplicateItem.value)
        /// A parameter is missing, of the wrong type or not allowed here (`errSecParam`).
        public static let invalidParameter = Code(name: "invalidParameter", status: SecurityStatus.param.value)
        /// The attribute does not exist for this class (`errSecNoSuchAttr`).
        public static let noSuchAttribute = Code(name: "noSuchAttribute", status: SecurityStatus.noSuchAttr.value)
        /// The item class is unknown (`errSecNoSuchClass`).
        public static let noSuchClass = Code(name: "noSuchClass", status: SecurityStatus.noSuchClass.value)
        /// The item's accessibility class is locked (`errSecInteractionNotAllowed`).
        public static let interactionNotAllowed = Code(name: "interactionNotAllowed", status: SecurityStatus.interactionNotAllowed.value)
        /// A passphrase was wrong, or is required and not set (`errSecAuthFailed`).
        public static let authenticationFailed = Code(name: "authenticationFailed", status: SecurityStatus.authFailed.value)
        /// The store was made with another device key (`errSecAuthFailed`).
        public static let wrongDeviceKey = Code(name: "wrongDeviceKey", status: SecurityStatus.authFailed.value)
        /// The access group is not among the caller's entitlements (`errSecMissingEntitlement`).
        public static let missingEntitlement = Code(name: "missingEntitlement", status: SecurityStatus.missingEntitlement.value)
        /// Stored bytes failed authentication: corruption or tampering (`errSecDecode`).
        public static let corruptData = Code(name: "corruptData", status: SecurityStatus.decode.value)
        /// The store file is newer than this library understands (`errSecDecode`).
        public static let unsupportedFormat = Code(name: "unsupportedFormat", status: SecurityStatus.decode.value)
        /// The store cannot be opened or used (`errSecNotAvailable`).
        public static let storeUnavailable = Code(name: "storeUnavailable", status: SecurityStatus.notAvailable.value)
        /// A key file is readable by other users, or not owned by this user (`errSecNotAvailable`).
        public static let insecureKeyFile = Code(name: "insecureKeyFile", status: SecurityStatus.notAvailable.value)
        /// The store is held by another writer for longer than the busy timeout (`errSecNotAvailable`).
        public static let storeBusy = Code(name: "storeBusy", status: SecurityStatus.notAvailable.value)
        /// The store is read-only (`errSecReadOnly`).
        public static let readOnly = Code(name: "readOnly", status: SecurityStatus.readOnly.value)
        /// Reading or writing a file failed (`ioErr`).
        public static let ioFailure = Code(name: "ioFailure", status: SecurityStatus.io.value)
        /// The item is too large to store (`errSecDataTooLarge`).
        public static let dataTooLarge = Code(name: "dataTooLarge", status: SecurityStatus.dataTooLarge.value)
        /// Guarded memory for keys could not be allocated (`errSecAllocate`).
        public static let outOfMemory = Code(name: "outOfMemory", status: SecurityStatus.allocate.value)
        /// The operation is not supported for this class (`errSecUnimplemented`).
        public static let unsupported = Code(name: "unsupported", status: SecurityStatus.unimplemented.value)
    }
}

extension SecStoreError {
    package static func invalid(_ message: String) -> SecStoreError { SecStoreError(.invalidParameter, message) }

    package static let notFound = SecStoreError(.itemNotFound, "No item matches the query.")

    static func corrupt(_ what: String) -> SecStoreError {
        SecStoreError(.corruptData, "\(what) failed authentication: the store file was damaged or altered. Run `secstore verify` to list damaged items.")
    }

    /// The key of a whole accessibility class failed authentication: its items cannot be
    /// read, the other classes can.
    static func damagedClassKey(_ accessibility: Accessibility) -> SecStoreError {
        SecStoreError(.corruptData, "The key of the \(accessibility) class (key record \(KeyRecord.name(for: accessibility))) failed authentication: the store file was damaged or altered, and that class's items cannot be read. Restore the store from a backup; `secstore verify` lists the items affected.")
    }

    /// A sealed part of one item failed authentication.
    static func corrupt(_ part: ItemPart, of item: PersistentReference) -> SecStoreError {
        SecStoreError(.corruptData, "The \(part.rawValue) of item \(item.hexString) failed authentication: the store file was damaged or altered. Run `secstore verify` to list damaged items.",
                      item: item, part: part)
    }

    /// A read came after the store's connections were closed (``StoreDatabase/close()``).
    static func closedWhileReading(_ path: String) -> SecStoreError {
        SecStoreError(.storeUnavailable, "The store \(path) was closed while it was being read. Open it again.")
    }

    /// A store method that writes was called inside the closure of the same store's `write`,
    /// on the closure's thread (``HeldMutex``): the transaction holds the writer connection.
    static let writeInsideItsTransaction = SecStoreError(.invalidParameter, "A SecretStore method that writes was called inside the closure of the same store's write(_:), on the thread running it: that transaction holds the store's writer, so the call cannot run. Inside the closure use the transaction's methods (transaction.add, update, delete); call the store's own after write(_:) returns.")

    /// A read started from inside another read on the same thread found every connection in
    /// use, its own among them (``ConnectionSlot``): waiting would never end.
    static func readInsideARead(_ path: String) -> SecStoreError {
        SecStoreError(.invalidParameter, "A read of the store \(path) was started from inside another read on the same thread (a logger handler or progress callback calling back into the store) while every connection was in use. Call the store after that callback returns.")
    }

    /// A ``StoreTransaction`` was used after its closure returned, or from another thread
    /// (``TransactionScope``).
    static let transactionOutsideItsClosure = SecStoreError(.invalidParameter, "A StoreTransaction was used outside the closure of write(_:) it was given to (after the closure returned, or from another thread). Use a transaction only inside its closure, on the thread running it.")

    static func locked(_ accessibility: Accessibility) -> SecStoreError {
        SecStoreError(.interactionNotAllowed, "An item's accessibility class (\(accessibility)) is locked. Unlock the store with its passphrase and try again.")
    }
}

extension SecStoreError.Code {
    /// An entitlements file is missing, malformed or incomplete (`errSecMissingEntitlement`).
    public static let invalidEntitlements = SecStoreError.Code(name: "invalidEntitlements", status: SecurityStatus.missingEntitlement.value)

    /// Every code, for tables and tests.
    package static let all: [SecStoreError.Code] = [
        .itemNotFound, .duplicateItem, .invalidParameter, .noSuchAttribute, .noSuchClass, .interactionNotAllowed,
        .authenticationFailed, .wrongDeviceKey, .missingEntitlement, .corruptData, .unsupportedFormat,
        .storeUnavailable, .insecureKeyFile, .storeBusy, .readOnly, .ioFailure, .dataTooLarge, .outOfMemory,
        .unsupported, .invalidEntitlements,
    ]

    /// The code with this stable name, such as `itemNotFound`.
    package init?(name: String) {
        guard let code = Self.all.first(where: { $0.name == name }) else { return nil }
        self = code
    }
}
