/// Apple's rules for each item class (reference §2): which attributes it carries and which
/// of them form its primary key. Everything that asks "does this class have this attribute"
/// or "which attributes identify an item" asks here.
extension ItemClass {
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
        case .genericPassword: Self.genericPasswordPrimaryKey
        case .internetPassword: Self.internetPasswordPrimaryKey
        }
    }

    private static let genericPasswordPrimaryKey: [AttributeKey] = [.account, .service, .accessGroup, .synchronizable]
    private static let internetPasswordPrimaryKey: [AttributeKey] = [
        .account, .securityDomain, .server, .protocol, .authenticationType, .port, .path, .accessGroup, .synchronizable,
    ]

}
