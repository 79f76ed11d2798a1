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

    /// The byte that names the class on disk and in associated data.
    package var code: UInt8 {
        switch self {
        case .genericPassword: 1
        case .internetPassword: 2
        }
    }

    package init?(code: UInt8) {
        guard let match = Self.byCode[code] else { return nil }
        self = match
    }

    private static let byCode = CodeTable(allCases, code: \.code)
}
