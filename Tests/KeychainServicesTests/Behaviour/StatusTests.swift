import Foundation
import KeychainServices
import Testing

/// Status codes and their messages: Apple's numbers and SecBase.h's strings (reference §5).
@Suite("Status codes") struct StatusTests {
    /// (status, Apple's number, Apple's message).
    static let table: [(OSStatus, OSStatus, String)] = [
        (errSecSuccess, 0, "No error."),
        (errSecUnimplemented, -4, "Function or operation not implemented."),
        (errSecIO, -36, "I/O error."),
        (errSecParam, -50, "One or more parameters passed to a function were not valid."),
        (errSecAllocate, -108, "Failed to allocate memory."),
        (errSecUserCanceled, -128, "User canceled the operation."),
        (errSecBadReq, -909, "Bad parameter or invalid state for operation."),
        (errSecNotAvailable, -25291, "No keychain is available. You may need to restart your computer."),
        (errSecReadOnly, -25292, "This keychain cannot be modified."),
        (errSecAuthFailed, -25293, "The user name or passphrase you entered is not correct."),
        (errSecDuplicateItem, -25299, "The specified item already exists in the keychain."),
        (errSecItemNotFound, -25300, "The specified item could not be found in the keychain."),
        (errSecDataTooLarge, -25302, "This item contains information which is too large or in a format that cannot be displayed."),
        (errSecNoSuchAttr, -25303, "The specified attribute does not exist."),
        (errSecNoSuchClass, -25306, "The specified item does not appear to be a valid keychain item."),
        (errSecInteractionNotAllowed, -25308, "User interaction is not allowed."),
        (errSecNoAccessForItem, -25243, "The specified item has no access control."),
        (errSecDecode, -26275, "Unable to decode the provided data."),
        (errSecMissingEntitlement, -34018, "A required entitlement isn't present."),
        (errSecRestrictedAPI, -34020, "Client is restricted and is not permitted to perform this operation."),
    ]

    @Test("Every status has Apple's number and Apple's message")
    func numbersAndMessages() {
        for (status, number, message) in Self.table {
            #expect(status == number)
            #expect(SecCopyErrorMessageString(status, nil) as String? == message, "\(number)")
        }
    }

    @Test("A status without a message reads \"OSStatus <n>\"")
    func unknownStatus() {
        #expect(SecCopyErrorMessageString(12345, nil) as String? == "OSStatus 12345")
        #expect(SecCopyErrorMessageString(errSecInternal, nil).map { String($0) } == "OSStatus -26276")
    }

    @Test("Apple's private reasons share the public numbers")
    func privateAliases() {
        let parameterReasons = [errSecItemInvalidKey, errSecItemInvalidKeyType, errSecItemInvalidValue, errSecItemClassMissing,
                                errSecItemMatchUnsupported, errSecUseItemListUnsupported, errSecReturnDataUnsupported,
                                errSecReturnAttributesUnsupported, errSecReturnRefUnsupported,
                                errSecReturnPersistentRefUnsupported, errSecValueRefUnsupported,
                                errSecValuePersistentRefUnsupported, errSecReturnMissingPointer, errSecMatchLimitUnsupported,
                                errSecItemIllegalQuery]
        #expect(parameterReasons.allSatisfy { $0 == -50 })
        #expect(errSecUnsupportedOperation == -4)
        #expect(errSecInternal == -26276)
    }

    @Test("noErr is an OSStatus, as Apple's overlay imports it: it initialises an OSStatus variable")
    func noErrIsAnOSStatus() {
        var lastResultCode: OSStatus = noErr
        #expect(lastResultCode == errSecSuccess)
        lastResultCode = errSecItemNotFound
        #expect(lastResultCode != noErr)
        #expect(Int(noErr) == 0)
    }
}
