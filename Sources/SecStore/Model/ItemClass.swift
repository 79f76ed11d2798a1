/// The kind of a keychain item, as `kSecClass` names it.
///
/// ```swift
/// let query = Query(itemClass: .internetPassword, attributes: [.server: "example.com"])
/// ```
public enum ItemClass: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `kSecClassGenericPassword` (`"genp"`): a secret named by service and account.
    case genericPassword = "genp"
    /// `kSecClassInternetPassword` (`"inet"`): a secret named by server, account, protocol, port, path, ….
    case internetPassword = "inet"

    /// Apple's four-character class name: `"genp"` or `"inet"`.
    public var description: String { rawValue }

    /// The attributes an item of this class may carry.
    public var attributeKeys: Set<AttributeKey> {
        switch self {
        case .genericPassword: Self.genericPasswordKeys
        case .internetPassword: Self.internetPasswordKeys
        }
    }

    private static let genericPasswordKeys = AttributeKey.sharedKeys.union([.service, .generic])
    private static let internetPasswordKeys = AttributeKey.sharedKeys.union(AttributeKey.internetKeys)

    /// ``attributeKeys`` as a bit per attribute code: the check every query and add makes.
    func has(_ key: AttributeKey) -> Bool {
        let mask = switch self {
        case .genericPassword: Self.genericPasswordMask
        case .internetPassword: Self.internetPasswordMask
        }
        return mask & (1 << UInt64(key.code)) != 0
    }

    private static let genericPasswordMask = genericPasswordKeys.reduce(UInt64(0)) { $0 | 1 << UInt64($1.code) }
    private static let internetPasswordMask = internetPasswordKeys.reduce(UInt64(0)) { $0 | 1 << UInt64($1.code) }

    /// The attributes that together identify one item: two items of a class may not agree
    /// on all of them (Apple's `UNIQUE` constraint; see the reference §2).
    public var primaryKey: [AttributeKey] {
        switch self {
        case .genericPassword:
            [.account, .service, .accessGroup, .synchronizable]
        case .internetPassword:
            [.account, .securityDomain, .server, .protocol, .authenticationType, .port, .path,
             .accessGroup, .synchronizable]
        }
    }

    /// The byte that names the class on disk and in associated data.
    var code: UInt8 {
        switch self {
        case .genericPassword: 1
        case .internetPassword: 2
        }
    }

    init?(code: UInt8) {
        guard let match = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = match
    }
}
