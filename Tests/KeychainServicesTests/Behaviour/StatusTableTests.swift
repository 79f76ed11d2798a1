import Foundation
@testable import KeychainServices
import SecStore
import Testing

/// One table of codes, names and messages serves the library, the facade and the tool.
@Suite("One status table") struct StatusTableTests {
    @Test("Every SecStoreError code has an Apple status with a message, and the facade returns exactly that status")
    func everyCodeMapsToAStatus() throws {
        for code in SecStoreError.Code.all {
            let status = try #require(SecurityStatus.named(code.status), "\(code.name) has no entry in the status table")
            #expect(SecItemCall.status(for: SecStoreError(code, "x")) == status.value)
            #expect(SecCopyErrorMessageString(code.status, nil) as String? == status.message)
            // Back from the name to the same code.
            #expect(SecStoreError.Code(name: code.name) == code)
        }
    }

    @Test("The table is SecBase.h's: every code once, by name and number, each with Apple's message or Apple's fallback")
    func tableIsApplesWholeHeader() {
        #expect(SecurityStatus.all.count == 381)
        #expect(Set(SecurityStatus.all.map(\.value)).count == SecurityStatus.all.count, "a number maps back to one name")
        #expect(Set(SecurityStatus.all.map(\.name)).count == SecurityStatus.all.count)
        for status in SecurityStatus.all {
            #expect(status.name.hasPrefix("errSec"))
            #expect(SecurityStatus.named(status.value) == status)
            #expect(SecCopyErrorMessageString(status.value, nil) as String? == status.message)
        }
        // A code the header declares without a comment has no message on Apple systems either.
        #expect(SecCopyErrorMessageString(errSecInternalComponent, nil) as String? == "OSStatus -2070")
        #expect(SecCopyErrorMessageString(-1, nil) as String? == "OSStatus -1")
    }

    @Test("The errSec constants wrappers name are declared with Apple's numbers")
    func constantsWrappersNameHaveApplesNumbers() {
        let expected: [(OSStatus, OSStatus)] = [
            (errSecSuccess, 0), (errSecUnimplemented, -4), (errSecDiskFull, -34), (errSecIO, -36), (errSecOpWr, -49),
            (errSecParam, -50), (errSecWrPerm, -61), (errSecAllocate, -108), (errSecUserCanceled, -128),
            (errSecBadReq, -909), (errSecInternalComponent, -2070), (errSecCoreFoundationUnknown, -4960),
            (errSecMissingEntitlement, -34018), (errSecRestrictedAPI, -34020), (errSecNotAvailable, -25291),
            (errSecReadOnly, -25292), (errSecAuthFailed, -25293), (errSecNoSuchKeychain, -25294),
            (errSecInvalidKeychain, -25295), (errSecDuplicateKeychain, -25296), (errSecDuplicateItem, -25299),
            (errSecItemNotFound, -25300), (errSecBufferTooSmall, -25301), (errSecDataTooLarge, -25302),
            (errSecNoSuchAttr, -25303), (errSecInvalidItemRef, -25304), (errSecNoSuchClass, -25306),
            (errSecInteractionNotAllowed, -25308), (errSecNoAccessForItem, -25243), (errSecInvalidOwnerEdit, -25244),
            (errSecDecode, -26275), (errSecNotTrusted, -67843), (errSecMissingQualifiedCertStatement, -67904),
        ]
        for (constant, number) in expected {
            #expect(constant == number)
            #expect(SecurityStatus.named(constant) != nil)
        }
        #expect(SecCopyErrorMessageString(errSecDiskFull, nil) as String? == "The disk is full.")
        #expect(SecCopyErrorMessageString(errSecWrPerm, nil) as String? == "Write permissions error.")
    }
}
