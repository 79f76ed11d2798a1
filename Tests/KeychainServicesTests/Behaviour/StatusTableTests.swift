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

    @Test("Every errSec constant the facade declares is the table's number, and its message is the table's")
    func everyConstantComesFromTheTable() {
        let declared: [(String, OSStatus)] = [
            ("errSecSuccess", errSecSuccess), ("errSecUnimplemented", errSecUnimplemented), ("errSecIO", errSecIO),
            ("errSecParam", errSecParam), ("errSecAllocate", errSecAllocate), ("errSecUserCanceled", errSecUserCanceled),
            ("errSecBadReq", errSecBadReq), ("errSecNotAvailable", errSecNotAvailable), ("errSecReadOnly", errSecReadOnly),
            ("errSecAuthFailed", errSecAuthFailed), ("errSecDuplicateItem", errSecDuplicateItem),
            ("errSecItemNotFound", errSecItemNotFound), ("errSecDataTooLarge", errSecDataTooLarge),
            ("errSecNoSuchAttr", errSecNoSuchAttr), ("errSecNoSuchClass", errSecNoSuchClass),
            ("errSecInteractionNotAllowed", errSecInteractionNotAllowed), ("errSecNoAccessForItem", errSecNoAccessForItem),
            ("errSecDecode", errSecDecode), ("errSecMissingEntitlement", errSecMissingEntitlement),
            ("errSecRestrictedAPI", errSecRestrictedAPI),
        ]
        #expect(declared.count == SecurityStatus.all.count)
        for (name, value) in declared {
            let entry = SecurityStatus.all.first { $0.name == name }
            #expect(entry?.value == value, "\(name)")
            #expect(SecCopyErrorMessageString(value, nil) as String? == entry?.message, "\(name)")
        }
        // Numbers are unique: a status maps back to one name.
        #expect(Set(SecurityStatus.all.map(\.value)).count == SecurityStatus.all.count)
    }
}
