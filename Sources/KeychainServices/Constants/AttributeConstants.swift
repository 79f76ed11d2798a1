import Foundation

// Attribute keys of generic and internet passwords, with Apple's four-character strings
// (SecItemConstants.c). Result dictionaries use the same strings as keys.

/// `kSecAttrAccessGroup` (`"agrp"`): the keychain access group of the item.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecAttrAccessGroup as String: "ABCDE12345.com.example.shared"]
/// ```
public let kSecAttrAccessGroup: CFString = "agrp"
/// `kSecAttrAccessible` (`"pdmn"`): when the item's secret can be read; see `kSecAttrAccessibleWhenUnlocked`.
public let kSecAttrAccessible: CFString = "pdmn"
/// `kSecAttrAccessControl` (`"accc"`): a ``SecAccessControl``, the item's protection and
/// constraints; given instead of `kSecAttrAccessible`.
public let kSecAttrAccessControl: CFString = "accc"
/// `kSecAttrCreationDate` (`"cdat"`): set by the store when the item is added; a value given to an add is ignored.
public let kSecAttrCreationDate: CFString = "cdat"
/// `kSecAttrModificationDate` (`"mdat"`): set by the store on add and on every update.
public let kSecAttrModificationDate: CFString = "mdat"
/// `kSecAttrDescription` (`"desc"`): a user-visible kind, such as "application password".
public let kSecAttrDescription: CFString = "desc"
/// `kSecAttrComment` (`"icmt"`): a user-editable comment.
public let kSecAttrComment: CFString = "icmt"
/// `kSecAttrCreator` (`"crtr"`): a four-character creator code, as a number.
public let kSecAttrCreator: CFString = "crtr"
/// `kSecAttrType` (`"type"`): a four-character type code, as a number.
public let kSecAttrType: CFString = "type"
/// `kSecAttrLabel` (`"labl"`): a user-visible name.
public let kSecAttrLabel: CFString = "labl"
/// `kSecAttrIsInvisible` (`"invi"`): a boolean, returned as the number 0 or 1.
public let kSecAttrIsInvisible: CFString = "invi"
/// `kSecAttrIsNegative` (`"nega"`): a boolean, returned as the number 0 or 1.
public let kSecAttrIsNegative: CFString = "nega"
/// `kSecAttrAccount` (`"acct"`): the account name; part of the primary key.
public let kSecAttrAccount: CFString = "acct"
/// `kSecAttrSynchronizable` (`"sync"`): a boolean, or `kSecAttrSynchronizableAny` in a query.
public let kSecAttrSynchronizable: CFString = "sync"
/// `kSecAttrSyncViewHint` (`"vwht"`). Not supported: SecStore items have no sync view (`errSecNoSuchAttr`).
public let kSecAttrSyncViewHint: CFString = "vwht"
/// `kSecAttrTokenID` (`"tkid"`). Not supported: there are no token items on Linux (`errSecNoSuchAttr`).
public let kSecAttrTokenID: CFString = "tkid"
/// `kSecAttrPersistentReference` (`"persistref"`): never a valid dictionary key (`errSecParam`); use `kSecValuePersistentRef`.
public let kSecAttrPersistentReference: CFString = "persistref"
/// `kSecAttrPersistantReference` (`"persistref"`): Apple's misspelt alias of `kSecAttrPersistentReference`.
public let kSecAttrPersistantReference: CFString = "persistref"

/// `kSecAttrService` (`"svce"`, generic passwords): the service name; part of the primary key.
public let kSecAttrService: CFString = "svce"
/// `kSecAttrGeneric` (`"gena"`, generic passwords): free-form application data.
public let kSecAttrGeneric: CFString = "gena"

/// `kSecAttrSecurityDomain` (`"sdmn"`, internet passwords): the security domain (realm).
public let kSecAttrSecurityDomain: CFString = "sdmn"
/// `kSecAttrServer` (`"srvr"`, internet passwords): the server's host name or address.
public let kSecAttrServer: CFString = "srvr"
/// `kSecAttrProtocol` (`"ptcl"`, internet passwords): a protocol code such as `kSecAttrProtocolHTTPS`.
public let kSecAttrProtocol: CFString = "ptcl"
/// `kSecAttrAuthenticationType` (`"atyp"`, internet passwords): such as `kSecAttrAuthenticationTypeDefault`.
public let kSecAttrAuthenticationType: CFString = "atyp"
/// `kSecAttrPort` (`"port"`, internet passwords): a number; the string `"443"` is the number 443.
public let kSecAttrPort: CFString = "port"
/// `kSecAttrPath` (`"path"`, internet passwords): the path component of the URL.
public let kSecAttrPath: CFString = "path"

/// `kSecAttrAccessGroupToken` (`"com.apple.token"`): the group of token items. Linux has none;
/// naming it is `errSecMissingEntitlement` unless the entitlements list it.
public let kSecAttrAccessGroupToken: CFString = "com.apple.token"
/// `kSecAttrTokenIDSecureEnclave` (`"com.apple.setoken"`): a `kSecAttrTokenID` value; not supported.
public let kSecAttrTokenIDSecureEnclave: CFString = "com.apple.setoken"
