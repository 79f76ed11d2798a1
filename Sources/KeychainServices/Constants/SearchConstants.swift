import Foundation

// Match keys (`m_…`) and their limit values, with Apple's strings. How each one behaves in
// each SecItem function is in docs/porting.md: `kSecMatchLimit`, `kSecMatchCaseInsensitive`
// and `kSecMatchHostOrSubdomainOfHost` filter; the certificate filters are not applicable to
// passwords; an add ignores match keys; update and delete reject them with `errSecParam`.

/// `kSecMatchLimit` (`"m_Limit"`): how many items `SecItemCopyMatching` returns:
/// `kSecMatchLimitOne` (the default, a single result), `kSecMatchLimitAll`, or a number.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecMatchLimit as String: kSecMatchLimitAll,
///                             kSecReturnAttributes as String: true]
/// ```
public let kSecMatchLimit: CFString = "m_Limit"
/// `kSecMatchLimitOne` (`"m_LimitOne"`): return the first match as a single object.
public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// `kSecMatchLimitAll` (`"m_LimitAll"`): return every match, as an array.
public let kSecMatchLimitAll: CFString = "m_LimitAll"
/// `kSecMatchCaseInsensitive` (`"m_CaseInsensitive"`): compare string attributes without
/// regard to case. Honoured by SecStore (iOS ignores it; see docs/porting.md).
public let kSecMatchCaseInsensitive: CFString = "m_CaseInsensitive"
/// `kSecMatchHostOrSubdomainOfHost` (`"m_HostOrSubdomainOfHost"`): internet passwords whose
/// server is this host or one of its subdomains.
public let kSecMatchHostOrSubdomainOfHost: CFString = "m_HostOrSubdomainOfHost"
/// `kSecMatchItemList` (`"m_ItemList"`): ignored by `SecItemCopyMatching`, as on iOS.
public let kSecMatchItemList: CFString = "m_ItemList"
/// `kSecMatchSearchList` (`"m_SearchList"`, macOS file keychains): ignored.
public let kSecMatchSearchList: CFString = "m_SearchList"
/// `kSecMatchPolicy` (`"m_Policy"`): certificates only; `errSecUnimplemented` on passwords.
public let kSecMatchPolicy: CFString = "m_Policy"
/// `kSecMatchIssuers` (`"m_Issuers"`): certificates only; `errSecUnimplemented` on passwords.
public let kSecMatchIssuers: CFString = "m_Issuers"
/// `kSecMatchEmailAddressIfPresent` (`"m_EmailAddressIfPresent"`): certificates only; ignored on passwords.
public let kSecMatchEmailAddressIfPresent: CFString = "m_EmailAddressIfPresent"
/// `kSecMatchSubjectContains` (`"m_SubjectContains"`): certificates only; ignored on passwords.
public let kSecMatchSubjectContains: CFString = "m_SubjectContains"
/// `kSecMatchSubjectStartsWith` (`"m_SubjectStartsWith"`, macOS): certificates only; ignored on passwords.
public let kSecMatchSubjectStartsWith: CFString = "m_SubjectStartsWith"
/// `kSecMatchSubjectEndsWith` (`"m_SubjectEndsWith"`, macOS): certificates only; ignored on passwords.
public let kSecMatchSubjectEndsWith: CFString = "m_SubjectEndsWith"
/// `kSecMatchSubjectWholeString` (`"m_SubjectWholeString"`, macOS): certificates only; ignored on passwords.
public let kSecMatchSubjectWholeString: CFString = "m_SubjectWholeString"
/// `kSecMatchTrustedOnly` (`"m_TrustedOnly"`): certificates only; ignored on passwords.
public let kSecMatchTrustedOnly: CFString = "m_TrustedOnly"
/// `kSecMatchValidOnDate` (`"m_ValidOnDate"`): certificates only; ignored on passwords.
public let kSecMatchValidOnDate: CFString = "m_ValidOnDate"
/// `kSecMatchDiacriticInsensitive` (`"m_DiacriticInsensitive"`, macOS file keychains): ignored.
public let kSecMatchDiacriticInsensitive: CFString = "m_DiacriticInsensitive"
/// `kSecMatchWidthInsensitive` (`"m_WidthInsensitive"`, macOS file keychains): ignored.
public let kSecMatchWidthInsensitive: CFString = "m_WidthInsensitive"
