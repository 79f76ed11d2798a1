import Foundation
import SecStore

/// The entitlements reader: any bytes as a property list (XML, binary or OpenStep, whichever
/// Foundation recognises). SecStore reads no JSON entitlements: Apple's entitlements are
/// property lists, and so is every format `Entitlements` accepts.
///
/// Checked: a refusal is `invalidEntitlements`; accepted entitlements written back as a
/// binary property list read back equal, and their derived values (access groups, default
/// group, description) compute.
enum EntitlementsFuzz {
    static func run(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        let entitlements: Entitlements
        do {
            entitlements = try Entitlements(propertyList: Data(bytes), source: "fuzz input")
        } catch let error as SecStoreError where error.code == .invalidEntitlements {
            return .refused(error.code.name)
        } catch {
            throw FuzzViolation(.entitlements, "refused with an error that is not invalidEntitlements: \(error)")
        }
        var plist: [String: Any] = ["keychain-access-groups": entitlements.keychainAccessGroups]
        if let applicationIdentifier = entitlements.applicationIdentifier {
            plist["application-identifier"] = applicationIdentifier
        }
        if !entitlements.applicationGroups.isEmpty {
            plist["com.apple.security.application-groups"] = entitlements.applicationGroups
        }
        do {
            let written = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
            let again = try Entitlements(propertyList: written, source: "round trip")
            guard again == entitlements else {
                throw FuzzViolation(.entitlements, "\(entitlements) read back as \(again)")
            }
        } catch let violation as FuzzViolation {
            throw violation
        } catch {
            throw FuzzViolation(.entitlements, "\(entitlements) does not read back: \(error)")
        }
        let groups = entitlements.accessGroups
        if let group = entitlements.defaultAccessGroup, !groups.contains(group) {
            throw FuzzViolation(.entitlements, "default group \(group) is not one of the access groups \(groups)")
        }
        return .accepted(entitlements.description)
    }
}
