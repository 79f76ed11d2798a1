import Foundation

/// The messages `SecCopyErrorMessageString` returns: Apple's, generated from the comments in
/// SecBase.h into SecErrorMessages.strings. A status without one reads "OSStatus <n>", as
/// on Apple systems.
enum StatusMessages {
    static let byStatus: [OSStatus: String] = [
        errSecSuccess: "No error.",
        errSecUnimplemented: "Function or operation not implemented.",
        errSecIO: "I/O error (bummers)",
        errSecParam: "One or more parameters passed to a function were not valid.",
        errSecAllocate: "Failed to allocate memory.",
        errSecUserCanceled: "User canceled the operation.",
        errSecBadReq: "Bad parameter or invalid state for operation.",
        errSecNotAvailable: "No keychain is available. You may need to restart your computer.",
        errSecReadOnly: "This keychain cannot be modified.",
        errSecAuthFailed: "The user name or passphrase you entered is not correct.",
        errSecDuplicateItem: "The specified item already exists in the keychain.",
        errSecItemNotFound: "The specified item could not be found in the keychain.",
        errSecDataTooLarge: "This item contains information which is too large or in a format that cannot be displayed.",
        errSecNoSuchAttr: "The specified attribute does not exist.",
        errSecNoSuchClass: "The specified item does not appear to be a valid keychain item.",
        errSecInteractionNotAllowed: "User interaction is not allowed.",
        errSecNoAccessForItem: "The specified item has no access control.",
        errSecDecode: "Unable to decode the provided data.",
        errSecMissingEntitlement: "A required entitlement isn't present.",
        errSecRestrictedAPI: "Client is restricted and is not permitted to perform this operation.",
    ]

    static func message(for status: OSStatus) -> String {
        byStatus[status] ?? "OSStatus \(status)"
    }
}
