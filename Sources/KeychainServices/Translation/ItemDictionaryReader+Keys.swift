import Foundation
import SecStore

/// How each kind of key reads: `kSecMatch…`, `kSecReturn…`, `kSecUse…` and `kSecValue…`.
extension ItemDictionaryReader {
    func readMatch(_ key: String, _ value: DictionaryValue, into request: inout ItemRequest) throws {
        // The macOS behaviour, chosen over iOS's (which reports success and stores nothing):
        // an add ignores match keys.
        guard operation != .add else { return }
        switch key {
        case Keys.matchLimit:
            // Checked everywhere; an update or delete acts on every match whatever the
            // limit, as macOS does (RequestRules), so KeychainAccess's removeAll() works.
            request.limit = try Self.matchLimit(value)
        case Keys.matchCaseInsensitive:
            guard let flag = value.boolean ?? value.integer.map({ $0 != 0 }) else {
                throw SecStoreError.invalid("kSecMatchCaseInsensitive must be a boolean")
            }
            request.caseInsensitive = flag
        case Keys.matchHostOrSubdomain:
            guard let host = value.string else {
                throw SecStoreError.invalid("kSecMatchHostOrSubdomainOfHost must be a string")
            }
            request.hostOrSubdomain = host
        case Keys.matchPolicy, Keys.matchIssuers:
            throw SecStoreError(.unsupported, "\(key) applies to certificates, not passwords")
        default:
            // As on iOS: the other certificate filters, kSecMatchItemList and unknown match
            // keys are not applicable to passwords and change nothing.
            break
        }
    }

    /// `kSecMatchLimitOne`, `kSecMatchLimitAll`, or a whole number (whose range the engine
    /// checks: at least 1).
    static func matchLimit(_ value: DictionaryValue) throws -> MatchLimit {
        if let name = value.string {
            switch name {
            case Keys.matchLimitOne: return .one
            case Keys.matchLimitAll: return .all
            default: break
            }
        } else if let count = value.integer {
            let exact = Int(clamping: count)
            return exact == 1 ? .one : .count(exact)
        }
        throw SecStoreError.invalid("kSecMatchLimit must be kSecMatchLimitOne, kSecMatchLimitAll or a positive number")
    }

    func readReturn(_ key: String, _ value: DictionaryValue, into request: inout ItemRequest) throws {
        let option: ReturnOptions
        switch key {
        case Keys.returnData: option = .data
        case Keys.returnAttributes: option = .attributes
        case Keys.returnReference: option = .reference
        case Keys.returnPersistentReference: option = .persistentReference
        default: throw SecStoreError.invalid("\"\(key)\" is not a return key")
        }
        guard let flag = value.boolean else {
            throw SecStoreError.invalid("\(key) must be a boolean (kCFBooleanTrue or true), not a number")
        }
        if flag { request.returns.insert(option) }
    }

    /// Linux has no authentication UI and one kind of keychain: the use keys are checked
    /// as Apple checks them and otherwise change nothing.
    func readUse(_ key: String, _ value: DictionaryValue) throws {
        switch key {
        case Keys.operationPrompt:
            guard value.string != nil else {
                throw SecStoreError.invalid("kSecUseOperationPrompt must be a string")
            }
        case Keys.noAuthenticationUI:
            guard value.boolean != nil else {
                throw SecStoreError.invalid("kSecUseNoAuthenticationUI must be a boolean")
            }
        case Keys.authenticationUI:
            switch value.string {
            case Keys.authenticationUIAllow, Keys.authenticationUIFail:
                break
            case Keys.authenticationUISkip where operation == .copyMatching:
                break
            case Keys.authenticationUISkip:
                throw SecStoreError.invalid("kSecUseAuthenticationUISkip is for SecItemCopyMatching only")
            default:
                throw SecStoreError.invalid("kSecUseAuthenticationUI must be kSecUseAuthenticationUIAllow, …Fail or …Skip")
            }
        case Keys.authenticationContext:
            // An LAContext on Apple systems; there is nothing to authenticate against here.
            break
        case Keys.itemList:
            throw SecStoreError.invalid("kSecUseItemList is not supported")
        default:
            throw SecStoreError.invalid("\"\(key)\" is not a use key")
        }
    }

    /// `kSecValueData`, which must be `Data`.
    static func secret(_ value: DictionaryValue) throws -> Data {
        guard let data = value.data else {
            throw SecStoreError.invalid("kSecValueData must be Data, not \(value.typeName)")
        }
        return data
    }

    func readValue(_ key: String, _ value: DictionaryValue, into request: inout ItemRequest) throws {
        switch key {
        case Keys.valueData:
            // Stored by an add; in a query Apple checks its type and does not match on it.
            request.data = try Self.secret(value)
        case Keys.valuePersistentReference:
            // A reference Apple hands out for a key or certificate has that class's four letters.
            if let data = value.data, data.count == PersistentReference.byteCount,
               let className = String(data: data.prefix(4), encoding: .ascii) {
                try Self.checkNotUnsupported(className)
            }
            guard let data = value.data, let reference = PersistentReference(data: data) else {
                throw SecStoreError.invalid("kSecValuePersistentRef must be a persistent reference returned by kSecReturnPersistentRef")
            }
            request.persistentReference = reference
        case Keys.valueReference:
            throw SecStoreError.invalid("kSecValueRef takes keys, certificates and identities, which SecStore does not store")
        default:
            throw SecStoreError.invalid("\"\(key)\" is not a value key")
        }
    }
}
