/// Apple's result codes (`SecBase.h`) as SecStore knows them: the number, Apple's constant
/// name and the message `SecCopyErrorMessageString` gives. This table is the one place those
/// numbers and messages are written: ``SecStoreError/Code`` takes its statuses from it,
/// `KeychainServices` declares its `errSec…` constants and messages from it, and the
/// `secstore` tool names failures by the codes built on it.
///
/// ```swift
/// SecurityStatus.itemNotFound.value      // -25300
/// SecurityStatus.message(for: -25300)    // "The specified item could not be found in the keychain."
/// ```
package struct SecurityStatus: Sendable, Hashable {
    package let value: Int32
    /// Apple's constant name, such as `errSecItemNotFound`.
    package let name: String
    /// Apple's message, generated from the comments in `SecBase.h`.
    package let message: String

    private init(_ value: Int32, _ name: String, _ message: String) {
        self.value = value
        self.name = name
        self.message = message
    }

    package static let success = SecurityStatus(0, "errSecSuccess", "No error.")
    package static let unimplemented = SecurityStatus(-4, "errSecUnimplemented", "Function or operation not implemented.")
    package static let io = SecurityStatus(-36, "errSecIO", "I/O error (bummers)")
    package static let param = SecurityStatus(-50, "errSecParam", "One or more parameters passed to a function were not valid.")
    package static let allocate = SecurityStatus(-108, "errSecAllocate", "Failed to allocate memory.")
    package static let userCanceled = SecurityStatus(-128, "errSecUserCanceled", "User canceled the operation.")
    package static let badReq = SecurityStatus(-909, "errSecBadReq", "Bad parameter or invalid state for operation.")
    package static let notAvailable = SecurityStatus(-25291, "errSecNotAvailable", "No keychain is available. You may need to restart your computer.")
    package static let readOnly = SecurityStatus(-25292, "errSecReadOnly", "This keychain cannot be modified.")
    package static let authFailed = SecurityStatus(-25293, "errSecAuthFailed", "The user name or passphrase you entered is not correct.")
    package static let duplicateItem = SecurityStatus(-25299, "errSecDuplicateItem", "The specified item already exists in the keychain.")
    package static let itemNotFound = SecurityStatus(-25300, "errSecItemNotFound", "The specified item could not be found in the keychain.")
    package static let dataTooLarge = SecurityStatus(-25302, "errSecDataTooLarge", "This item contains information which is too large or in a format that cannot be displayed.")
    package static let noSuchAttr = SecurityStatus(-25303, "errSecNoSuchAttr", "The specified attribute does not exist.")
    package static let noSuchClass = SecurityStatus(-25306, "errSecNoSuchClass", "The specified item does not appear to be a valid keychain item.")
    package static let interactionNotAllowed = SecurityStatus(-25308, "errSecInteractionNotAllowed", "User interaction is not allowed.")
    package static let noAccessForItem = SecurityStatus(-25243, "errSecNoAccessForItem", "The specified item has no access control.")
    package static let decode = SecurityStatus(-26275, "errSecDecode", "Unable to decode the provided data.")
    package static let missingEntitlement = SecurityStatus(-34018, "errSecMissingEntitlement", "A required entitlement isn't present.")
    package static let restrictedAPI = SecurityStatus(-34020, "errSecRestrictedAPI", "Client is restricted and is not permitted to perform this operation.")

    /// Every status above, in `SecBase.h` order.
    package static let all: [SecurityStatus] = [
        success, unimplemented, io, param, allocate, userCanceled, badReq, notAvailable, readOnly, authFailed,
        duplicateItem, itemNotFound, dataTooLarge, noSuchAttr, noSuchClass, interactionNotAllowed, noAccessForItem,
        decode, missingEntitlement, restrictedAPI,
    ]

    private static let byValue: [Int32: SecurityStatus] = Dictionary(all.map { ($0.value, $0) }, uniquingKeysWith: { first, _ in first })

    /// The status with this number, if Apple declares it.
    package static func named(_ value: Int32) -> SecurityStatus? { byValue[value] }

    /// Apple's message for `value`; a status without one reads "OSStatus <n>", as on Apple systems.
    package static func message(for value: Int32) -> String {
        byValue[value]?.message ?? "OSStatus \(value)"
    }
}
