import Foundation

/// The dictionary keys and values the readers compare against, as Swift strings made from
/// this module's own `kSec…` constants: the spelling of each key lives in Constants/ only.
enum Keys {
    static let itemClass = kSecClass as String
    static let synchronizable = kSecAttrSynchronizable as String
    static let synchronizableAny = kSecAttrSynchronizableAny as String
    static let accessControl = kSecAttrAccessControl as String
    static let accessible = kSecAttrAccessible as String
    static let accessGroup = kSecAttrAccessGroup as String
    static let dataProtectionKeychain = kSecUseDataProtectionKeychain as String

    static let matchLimit = kSecMatchLimit as String
    static let matchLimitOne = kSecMatchLimitOne as String
    static let matchLimitAll = kSecMatchLimitAll as String
    static let matchCaseInsensitive = kSecMatchCaseInsensitive as String
    static let matchHostOrSubdomain = kSecMatchHostOrSubdomainOfHost as String
    static let matchPolicy = kSecMatchPolicy as String
    static let matchIssuers = kSecMatchIssuers as String

    static let returnData = kSecReturnData as String
    static let returnAttributes = kSecReturnAttributes as String
    static let returnReference = kSecReturnRef as String
    static let returnPersistentReference = kSecReturnPersistentRef as String

    static let operationPrompt = kSecUseOperationPrompt as String
    static let noAuthenticationUI = kSecUseNoAuthenticationUI as String
    static let authenticationUI = kSecUseAuthenticationUI as String
    static let authenticationUIAllow = kSecUseAuthenticationUIAllow as String
    static let authenticationUIFail = kSecUseAuthenticationUIFail as String
    static let authenticationUISkip = kSecUseAuthenticationUISkip as String
    static let authenticationContext = kSecUseAuthenticationContext as String
    static let itemList = kSecUseItemList as String

    static let valueData = kSecValueData as String
    static let valuePersistentReference = kSecValuePersistentRef as String
    static let valueReference = kSecValueRef as String

    /// `kSecClassCertificate`, `kSecClassKey`, `kSecClassIdentity`: classes Apple has and
    /// SecStore does not store.
    static let unsupportedClasses: Set<String> = [kSecClassCertificate as String, kSecClassKey as String,
                                                  kSecClassIdentity as String]

    /// The multi-user attribute (`"musr"`), which Apple ignores in an update's changes.
    static let multiUser = "musr"
}
