import Foundation
import SecStore

/// The rules for each kind of key: attributes, `kSecMatch…`, `kSecReturn…`, `kSecUse…` and
/// `kSecValue…`.
extension ItemDictionaryParser {
    func readAttribute(_ key: String, _ value: Any, into parsed: inout ItemDictionary) throws {
        switch try AttributeReader.read(key, value, itemClass: parsed.itemClass) {
        case .ignored:
            break
        case .synchronizable(let synchronizable):
            parsed.synchronizable = synchronizable
        case .attribute(let attributeKey, let attributeValue):
            parsed.attributes[attributeKey] = attributeValue
        }
    }

    func readMatch(_ key: String, _ value: Any, into parsed: inout ItemDictionary) throws {
        switch operation {
        case .add:
            // The macOS behaviour, chosen over iOS's (which reports success and stores
            // nothing): an add ignores match keys.
            return
        case .update, .delete:
            throw SecItemFailure(key == "m_Limit" ? errSecMatchLimitUnsupported : errSecItemMatchUnsupported,
                                 "\(operation) does not take match keys such as \(key)")
        case .copyMatching:
            break
        }
        switch key {
        case "m_Limit":
            parsed.limit = try Self.matchLimit(value)
        case "m_CaseInsensitive":
            guard let flag = DictionaryValue.boolean(value) ?? DictionaryValue.integer(value).map({ $0 != 0 }) else {
                throw SecItemFailure.parameter("kSecMatchCaseInsensitive must be a boolean")
            }
            parsed.caseInsensitive = flag
        case "m_HostOrSubdomainOfHost":
            guard let host = DictionaryValue.string(value) else {
                throw SecItemFailure.parameter("kSecMatchHostOrSubdomainOfHost must be a string")
            }
            parsed.hostOrSubdomain = host
        case "m_Policy", "m_Issuers":
            throw SecItemFailure(errSecUnsupportedOperation, "\(key) applies to certificates, not passwords")
        default:
            // As on iOS: the other certificate filters, kSecMatchItemList and unknown match
            // keys are not applicable to passwords and change nothing.
            break
        }
    }

    /// `kSecMatchLimitOne`, `kSecMatchLimitAll`, or a positive whole number (1 means one).
    static func matchLimit(_ value: Any) throws -> MatchLimit {
        if let name = DictionaryValue.string(value) {
            switch name {
            case "m_LimitOne": return .one
            case "m_LimitAll": return .all
            default: break
            }
        } else if let count = DictionaryValue.integer(value), count >= 1, let exact = Int(exactly: count) {
            return exact == 1 ? .one : .count(exact)
        }
        throw SecItemFailure.parameter("kSecMatchLimit must be kSecMatchLimitOne, kSecMatchLimitAll or a positive number")
    }

    func readReturn(_ key: String, _ value: Any, into parsed: inout ItemDictionary) throws {
        guard let returnKey = ReturnKeys(key: key) else {
            throw SecItemFailure(errSecItemInvalidKey, "\"\(key)\" is not a return key")
        }
        guard let flag = DictionaryValue.boolean(value) else {
            throw SecItemFailure(errSecItemInvalidValue, "\(key) must be a boolean (kCFBooleanTrue or true), not a number")
        }
        if flag { parsed.returns.insert(returnKey) }
    }

    /// Linux has no authentication UI and one kind of keychain: the use keys are checked
    /// as Apple checks them and otherwise change nothing.
    func readUse(_ key: String, _ value: Any) throws {
        switch key {
        case "u_OpPrompt":
            guard DictionaryValue.string(value) != nil else {
                throw SecItemFailure.parameter("kSecUseOperationPrompt must be a string")
            }
        case "u_NoAuthUI":
            guard DictionaryValue.boolean(value) != nil else {
                throw SecItemFailure.parameter("kSecUseNoAuthenticationUI must be a boolean")
            }
        case "u_AuthUI":
            switch DictionaryValue.string(value) {
            case "u_AuthUIA", "u_AuthUIF":
                break
            case "u_AuthUIS" where operation == .copyMatching:
                break
            case "u_AuthUIS":
                throw SecItemFailure.parameter("kSecUseAuthenticationUISkip is for SecItemCopyMatching only")
            default:
                throw SecItemFailure.parameter("kSecUseAuthenticationUI must be kSecUseAuthenticationUIAllow, …Fail or …Skip")
            }
        case "u_AuthCtx":
            // An LAContext on Apple systems; there is nothing to authenticate against here.
            break
        case "u_ItemList":
            throw SecItemFailure(errSecUseItemListUnsupported, "kSecUseItemList is not supported")
        default:
            throw SecItemFailure(errSecItemInvalidKey, "\"\(key)\" is not a use key")
        }
    }

    func readValue(_ key: String, _ value: Any, into parsed: inout ItemDictionary) throws {
        switch key {
        case "v_Data":
            guard let data = DictionaryValue.data(value) else {
                throw SecItemFailure(errSecItemInvalidValue, "kSecValueData must be Data, not \(type(of: value))")
            }
            // Stored by an add; in a query Apple checks its type and does not match on it.
            parsed.data = data
        case "v_PersistentRef":
            break   // read before the other keys, since it may name the class
        case "v_Ref":
            throw SecItemFailure(errSecValueRefUnsupported, "kSecValueRef takes keys, certificates and identities, which SecStore does not store")
        default:
            throw SecItemFailure(errSecItemInvalidKey, "\"\(key)\" is not a value key")
        }
    }
}
