/// The name of an item attribute, spelled as Apple spells it (`"acct"`, `"svce"`, …).
///
/// ```swift
/// var attributes = Attributes()
/// attributes[.label] = "Production API token"
/// AttributeKey(rawValue: "acct") == .account   // true
/// ```
public struct AttributeKey: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// Apple's four-character name of the attribute (`kSecAttrAccount` is `"acct"`).
    public let rawValue: String
    /// The byte that names the attribute in the sealed metadata encoding.
    let code: UInt8
    let kind: AttributeKind

    /// The attribute with this name, or `nil` if SecStore has no such attribute.
    public init?(rawValue: String) {
        guard let name = Self.packedName(rawValue), let index = Self.packedNames.firstIndex(of: name) else { return nil }
        self = Self.all[index]
    }

    private init(_ rawValue: String, _ code: UInt8, _ kind: AttributeKind) {
        self.rawValue = rawValue
        self.code = code
        self.kind = kind
    }

    /// Apple's name of the attribute, such as `"acct"`.
    public var description: String { rawValue }

    /// Whether two keys name the same attribute.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    /// Hashes the attribute's identity, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// `kSecAttrAccount`.
    public static let account = AttributeKey("acct", 1, .blob)
    /// `kSecAttrService` (generic passwords).
    public static let service = AttributeKey("svce", 2, .blob)
    /// `kSecAttrGeneric` (generic passwords): free-form application data.
    public static let generic = AttributeKey("gena", 3, .blob)
    /// `kSecAttrLabel`: a user-visible name.
    public static let label = AttributeKey("labl", 4, .blob)
    /// `kSecAttrDescription`: a user-visible kind ("application password").
    public static let itemDescription = AttributeKey("desc", 5, .blob)
    /// `kSecAttrComment`.
    public static let comment = AttributeKey("icmt", 6, .blob)
    /// `kSecAttrCreator`: a four-character code, as a number.
    public static let creator = AttributeKey("crtr", 7, .number)
    /// `kSecAttrType`: a four-character code, as a number.
    public static let type = AttributeKey("type", 8, .number)
    /// `kSecAttrIsInvisible`.
    public static let isInvisible = AttributeKey("invi", 9, .number)
    /// `kSecAttrIsNegative`.
    public static let isNegative = AttributeKey("nega", 10, .number)
    /// `kSecAttrAccessGroup`.
    public static let accessGroup = AttributeKey("agrp", 11, .string)
    /// `kSecAttrAccessible`.
    public static let accessible = AttributeKey("pdmn", 12, .accessibility)
    /// `kSecAttrSynchronizable`.
    public static let synchronizable = AttributeKey("sync", 13, .synchronizable)
    /// `kSecAttrCreationDate`, set by the store.
    public static let creationDate = AttributeKey("cdat", 14, .date)
    /// `kSecAttrModificationDate`, set by the store.
    public static let modificationDate = AttributeKey("mdat", 15, .date)
    /// `kSecAttrSecurityDomain` (internet passwords).
    public static let securityDomain = AttributeKey("sdmn", 16, .blob)
    /// `kSecAttrServer` (internet passwords).
    public static let server = AttributeKey("srvr", 17, .blob)
    /// `kSecAttrProtocol` (internet passwords): a four-character code such as `"htps"`.
    public static let `protocol` = AttributeKey("ptcl", 18, .number)
    /// `kSecAttrAuthenticationType` (internet passwords), such as `"dflt"`.
    public static let authenticationType = AttributeKey("atyp", 19, .blob)
    /// `kSecAttrPort` (internet passwords).
    public static let port = AttributeKey("port", 20, .number)
    /// `kSecAttrPath` (internet passwords).
    public static let path = AttributeKey("path", 21, .blob)

    /// `kSecAttrAccessControl`'s constraints (``AccessControlFlags``), as a number; its
    /// protection is the item's ``accessible`` class.
    public static let accessControl = AttributeKey("accc", 22, .number)
    /// Every attribute SecStore knows, in code order.
    public static let all: [AttributeKey] = [
        .account, .service, .generic, .label, .itemDescription, .comment, .creator, .type,
        .isInvisible, .isNegative, .accessGroup, .accessible, .synchronizable, .creationDate,
        .modificationDate, .securityDomain, .server, .protocol, .authenticationType, .port, .path,
        .accessControl,
    ]

    static let sharedKeys: Set<AttributeKey> = [
        .account, .label, .itemDescription, .comment, .creator, .type, .isInvisible, .isNegative,
        .accessGroup, .accessible, .synchronizable, .creationDate, .modificationDate, .accessControl,
    ]
    static let internetKeys: Set<AttributeKey> = [
        .securityDomain, .server, .protocol, .authenticationType, .port, .path,
    ]

    /// Every name is four ASCII letters: as one 32-bit number, a name is found among the
    /// couple of dozen by comparing integers, without hashing the string (a SecItem
    /// dictionary's attributes are looked up on every call).
    private static let packedNames: [UInt32] = all.map { packedName($0.rawValue)! }

    /// The name's four UTF-8 bytes as one number; `nil` for a name of any other length.
    private static func packedName(_ name: String) -> UInt32? {
        let bytes = name.utf8
        guard bytes.count == 4 else { return nil }
        // A native string's bytes are read in place; a bridged one's one by one.
        return bytes.withContiguousStorageIfAvailable(packed) ?? packed(bytes)
    }

    private static func packed(_ bytes: some Collection<UInt8>) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static let byCode = CodeTable(all, code: \.code)

    init?(code: UInt8) {
        guard let key = Self.byCode[code] else { return nil }
        self = key
    }
}

/// How an attribute's value is stored and compared (Apple's schema "kinds", reference §2).
enum AttributeKind: Sendable {
    /// String, data or number; compared by bytes, so `"a"` equals `Data("a".utf8)`.
    case blob
    /// An integer; a string that reads as an integer is that integer, any other string stays a string.
    case number
    /// A string; data is decoded as UTF-8.
    case string
    /// One of the accessibility values.
    case accessibility
    /// A boolean.
    case synchronizable
    /// A date.
    case date
}
