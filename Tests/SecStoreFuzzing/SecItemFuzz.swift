import Foundation
import KeychainServices
import SecStore
import Synchronization

/// The SecItem dictionary reader, through the public functions on a real store: each input
/// is one to four calls of `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` or
/// `SecItemDelete`, each with a dictionary of keys (Apple's `kSec…` constants, near misses and
/// junk, now and then a key that is not a string) and values of every type a CF dictionary can
/// hold (strings, data, integers of every width, booleans, doubles, dates with any bit pattern,
/// arrays, nested dictionaries, `NSNull`, optionals, access controls, persistent references
/// returned by an earlier call of the same input).
///
/// Checked: every call returns a status of Apple's table and never `errSecNotAvailable` (the
/// status of an error that is not a typed `SecStoreError`: on a healthy store nobody else
/// uses, that is a bug); a failed call leaves its result `nil`; a result is one of the
/// shapes Apple returns.
///
/// Every input starts from the same store: two items, one of each class (the store is put back
/// when the previous input changed it), so the fuzzer's crashes reproduce.
enum SecItemFuzz {
    // MARK: Keys and values

    static let keys: [String] = [
        kSecClass, kSecAttrAccessGroup, kSecAttrAccessible, kSecAttrAccessControl, kSecAttrCreationDate,
        kSecAttrModificationDate, kSecAttrDescription, kSecAttrComment, kSecAttrCreator, kSecAttrType, kSecAttrLabel,
        kSecAttrIsInvisible, kSecAttrIsNegative, kSecAttrAccount, kSecAttrSynchronizable, kSecAttrSyncViewHint,
        kSecAttrTokenID, kSecAttrPersistentReference, kSecAttrService, kSecAttrGeneric, kSecAttrSecurityDomain,
        kSecAttrServer, kSecAttrProtocol, kSecAttrAuthenticationType, kSecAttrPort, kSecAttrPath,
        kSecMatchLimit, kSecMatchCaseInsensitive, kSecMatchHostOrSubdomainOfHost, kSecMatchItemList,
        kSecMatchSearchList, kSecMatchPolicy, kSecMatchIssuers, kSecMatchEmailAddressIfPresent,
        kSecMatchSubjectContains, kSecMatchTrustedOnly, kSecMatchValidOnDate, kSecMatchDiacriticInsensitive,
        kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef,
        kSecValueData, kSecValueRef, kSecValuePersistentRef,
        kSecUseDataProtectionKeychain, kSecUseOperationPrompt, kSecUseNoAuthenticationUI, kSecUseAuthenticationUI,
        kSecUseAuthenticationContext, kSecUseItemList,
        // Apple's keys SecStore has no constant for, and near misses of each kind.
        "musr", "nleg", "class", "clas", "v_Data", "r_Data", "m_Limit", "u_Tomb", "f_flag", "persistref", "",
    ].map { $0 as String }

    static let values: [String] = [
        kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey, kSecClassIdentity,
        kSecAttrAccessibleWhenUnlocked, kSecAttrAccessibleAfterFirstUnlock, kSecAttrAccessibleAlways,
        kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        kSecAttrAccessibleAlwaysThisDeviceOnly, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
        kSecAttrSynchronizableAny, kSecMatchLimitOne, kSecMatchLimitAll,
        kSecAttrProtocolHTTPS, kSecAttrProtocolSSH, kSecAttrProtocolFTP, kSecAttrAuthenticationTypeDefault,
        kSecAttrAuthenticationTypeHTMLForm, kSecUseAuthenticationUIAllow, kSecUseAuthenticationUIFail,
        kSecUseAuthenticationUISkip, kSecAttrAccessGroupToken, kSecAttrTokenIDSecureEnclave,
        FuzzStores.g1, FuzzStores.g2, FuzzStores.applicationIdentifier, FuzzStores.foreignGroup,
        "svc", "acct", "example.com", "www.example.com", "EXAMPLE.COM", "/path", "", "0", "1", "-1", "htps", "dflt",
    ].map { $0 as String }

    /// Flags an access control is made with: each of Apple's, combinations, an unknown bit.
    static let accessControlFlagChoices: [UInt] = [0, 1, 2, 8, 16, 32, 1 << 14, 1 << 15, 1 << 30, 1 << 31, 3, 64, (1 << 14) | 3]

    /// Everything `value(_:depth:)` can make; the fuzzer picks by index.
    enum ValueKind: CaseIterable {
        case knownString, string, data, integer, smallInteger, unsignedInteger, boolean, swiftBoolean, double,
             date, nsDate, array, dictionary, null, optionalNone, optionalSome, accessControl, persistentReference,
             foundationObject
    }

    /// A value for a dictionary, of the type the input chooses.
    static func value(_ input: inout FuzzInput, depth: Int, references: [Data]) -> Any {
        switch input.pick(ValueKind.allCases) {
        case .knownString: return input.pick(values)
        case .string: return input.string(maximum: 40)
        case .data: return Data(input.bytes(maximum: 64))
        case .integer: return NSNumber(value: input.integer(Int64.self))
        case .smallInteger:
            // Each width has its own objCType, which the reader's number conversion dispatches on.
            switch input.index(6) {
            case 0: return NSNumber(value: Int8(truncatingIfNeeded: input.byte()))
            case 1: return NSNumber(value: input.integer(Int16.self))
            case 2: return NSNumber(value: input.integer(Int32.self))
            case 3: return input.pick([0, 1, -1, 2, 129, Int.max, Int.min] as [Int])
            case 4: return NSNumber(value: UInt8(input.byte()))
            default: return NSNumber(value: input.integer(UInt32.self))
            }
        case .unsignedInteger: return NSNumber(value: input.integer(UInt64.self))
        case .boolean: return NSNumber(value: input.bool())
        case .swiftBoolean: return input.bool()
        case .double:
            return input.bool() ? NSNumber(value: input.double()) : NSNumber(value: Float(bitPattern: input.integer(UInt32.self)))
        case .date: return Date(timeIntervalSinceReferenceDate: input.double())
        case .nsDate: return NSDate(timeIntervalSinceReferenceDate: input.double())
        case .array:
            guard depth < 2 else { return [] as [Any] }
            return (0..<input.index(4)).map { _ in value(&input, depth: depth + 1, references: references) }
        case .dictionary:
            guard depth < 2 else { return [:] as [String: Any] }
            return dictionary(&input, depth: depth + 1, references: references)
        case .null: return NSNull()
        case .optionalNone: return String?.none as Any
        case .optionalSome: return Optional(value(&input, depth: depth + 1, references: references)) as Any
        case .accessControl:
            let protection = input.pick(values)
            let flags = AccessControlFlags(rawValue: input.pick(accessControlFlagChoices))
            return SecAccessControlCreateWithFlags(nil, protection, flags, nil) as Any
        case .persistentReference:
            if !references.isEmpty, input.bool() { return references[input.index(references.count)] }
            // Shaped like one: a class name and 16 bytes of id.
            return Data(input.pick(["genp", "inet", "keys", ""]).utf8) + Data(input.take(16))
        case .foundationObject:
            switch input.index(3) {
            case 0: return NSString(string: input.pick(values))
            case 1: return NSData(data: Data(input.bytes(maximum: 16)))
            default: return NSArray(array: [input.pick(values)])
            }
        }
    }

    /// A key: mostly Apple's, sometimes a four-character junk attribute, junk of any length,
    /// or not a string at all.
    static func key(_ input: inout FuzzInput) -> AnyHashable {
        switch input.index(12) {
        case 0..<8: return AnyHashable(input.pick(keys))
        case 8: return AnyHashable(String(decoding: input.take(4), as: UTF8.self))
        case 9: return AnyHashable(input.string(maximum: 16))
        case 10: return AnyHashable(NSNumber(value: input.integer(Int16.self)))
        default: return AnyHashable(Data(input.bytes(maximum: 4)))
        }
    }

    /// A dictionary of up to 11 entries; now and then more than Apple's limit of 128.
    static func dictionary(_ input: inout FuzzInput, depth: Int, references: [Data]) -> [AnyHashable: Any] {
        let count = input.byte()
        var dictionary: [AnyHashable: Any] = [:]
        if count == 0xFF {
            for index in 0..<(120 + input.index(16)) { dictionary["k\(index)"] = index }
            return dictionary
        }
        for _ in 0..<(Int(count) % 12) {
            dictionary[key(&input)] = value(&input, depth: depth, references: references)
        }
        return dictionary
    }

    // MARK: The run

    /// Whether the previous input changed the store, which must then be put back.
    private static let storeChanged = Mutex(true)

    static func run(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        try prepareStore()
        var input = FuzzInput(bytes)
        var references: [Data] = []
        var statuses: [OSStatus] = []
        for _ in 0..<(1 + input.index(4)) where !input.isAtEnd || statuses.isEmpty {
            let operation = input.index(4)
            let query = dictionary(&input, depth: 0, references: references) as NSDictionary
            let wantsResult = input.byte() % 4 != 0
            var result: CFTypeRef? = NSString(string: "untouched")
            let status: OSStatus
            switch operation {
            case 0:
                status = wantsResult ? SecItemAdd(query, &result) : SecItemAdd(query, nil)
            case 1:
                status = wantsResult ? SecItemCopyMatching(query, &result) : SecItemCopyMatching(query, nil)
            case 2:
                let changes = dictionary(&input, depth: 0, references: references) as NSDictionary
                status = SecItemUpdate(query, changes)
                result = nil
            default:
                status = SecItemDelete(query)
                result = nil
            }
            statuses.append(status)
            try check(status, result: wantsResult || operation >= 2 ? result : nil, operation: operation)
            if status == errSecSuccess, operation != 1 { storeChanged.withLock { $0 = true } }
            references += persistentReferences(in: result)
        }
        let summary = statuses.map(String.init).joined(separator: " ")
        return statuses.allSatisfy { $0 == errSecSuccess } ? .accepted(summary) : .refused(summary)
    }

    private static func check(_ status: OSStatus, result: CFTypeRef?, operation: Int) throws(FuzzViolation) {
        let name = ["SecItemAdd", "SecItemCopyMatching", "SecItemUpdate", "SecItemDelete"][operation]
        let message = SecCopyErrorMessageString(status, nil) ?? ""
        if message.hasPrefix("OSStatus") {
            throw FuzzViolation(.secItem, "\(name) returned \(status), which is not in Apple's status table")
        }
        if status == errSecNotAvailable {
            throw FuzzViolation(.secItem, "\(name) returned errSecNotAvailable: an error that is not a SecStoreError escaped")
        }
        if status != errSecSuccess, result != nil {
            throw FuzzViolation(.secItem, "\(name) failed with \(status) but left a result: \(result!)")
        }
        if let result, !(result is NSData || result is NSDictionary || result is NSArray) {
            throw FuzzViolation(.secItem, "\(name) returned an object Apple never returns: \(type(of: result))")
        }
    }

    /// Persistent references in a result, for later calls of the same input to name.
    private static func persistentReferences(in result: CFTypeRef?) -> [Data] {
        switch result {
        case let data as Data where data.count == 20: [data]
        case let dictionary as [String: Any]: [dictionary[kSecValuePersistentRef as String] as? Data].compactMap { $0 }
        case let array as [Any]: array.flatMap { persistentReferences(in: $0 as AnyObject) }
        default: []
        }
    }

    /// Makes the target's store the default store (a test between two inputs may have
    /// configured another), and puts it back to its two items when the previous input changed it.
    private static func prepareStore() throws(FuzzViolation) {
        do {
            let store = try store.withLock { store in
                if let store { return store }
                let opened = try FuzzStores.openStore("secitem", access: .entitled(Entitlements(
                    applicationIdentifier: FuzzStores.applicationIdentifier, keychainAccessGroups: [FuzzStores.g1, FuzzStores.g2])))
                store = opened
                return opened
            }
            SecItemDefaultStore.use(store)
            let changed = storeChanged.withLock { changed in
                defer { changed = false }
                return changed
            }
            guard changed else { return }
            for itemClass in ItemClass.allCases {
                do {
                    try store.delete(matching: Query(itemClass: itemClass, synchronizable: .any, limit: .all))
                } catch let error as SecStoreError where error.code == .itemNotFound {}
            }
            try store.add(.genericPassword(service: "svc", account: "acct", data: Data("secret".utf8)))
            var server = Attributes()
            server.server = "www.example.com"
            server.account = "acct"
            server.protocol = .https
            server.port = 443
            try store.add(Item(itemClass: .internetPassword, attributes: server, data: Data("secret".utf8)))
        } catch {
            throw FuzzViolation(.secItem, "cannot prepare the store: \(error)")
        }
    }

    private static let store = Mutex<SecretStore?>(nil)

    // MARK: Seeds

    /// A value as a seed writes it: the bytes ``value(_:depth:references:)`` reads back as it.
    indirect enum SeedValue {
        case known(String), string(String), data(Data), integer(Int64), boolean(Bool), date(Double), null
        case accessControl(protection: String, flags: UInt)
        /// The `index`th persistent reference an earlier call of the input returned.
        case reference(Int)
        case array([SeedValue])
        case dictionary([(SeedKey, SeedValue)])
    }

    enum SeedKey {
        case known(String), junk(String), number(Int16)
    }

    /// One call: 0 add, 1 copy matching, 2 update (with `changes`), 3 delete.
    struct SeedCall {
        var operation: Int
        var query: [(SeedKey, SeedValue)]
        var wantsResult = true
        var changes: [(SeedKey, SeedValue)] = []
    }

    /// The input that makes these calls (at most four, dictionaries of at most 11 entries).
    static func seed(_ calls: [SeedCall]) -> [UInt8] {
        precondition((1...4).contains(calls.count))
        var out: [UInt8] = [UInt8(calls.count - 1)]
        for call in calls {
            out.append(UInt8(call.operation))
            out += encode(call.query)
            out.append(call.wantsResult ? 1 : 0)
            if call.operation == 2 { out += encode(call.changes) }
        }
        return out
    }

    private static func encode(_ entries: [(SeedKey, SeedValue)]) -> [UInt8] {
        precondition(entries.count < 12)
        var out: [UInt8] = [UInt8(entries.count)]
        for (key, value) in entries {
            switch key {
            case .known(let name): out += [0, UInt8(keys.firstIndex(of: name)!)]
            case .junk(let name):
                precondition(name.utf8.count == 4)
                out += [8] + Array(name.utf8)
            case .number(let number): out += [10] + FuzzBytes.le(number)
            }
            out += encode(value)
        }
        return out
    }

    private static func encode(_ value: SeedValue) -> [UInt8] {
        func kind(_ kind: ValueKind) -> UInt8 { UInt8(ValueKind.allCases.firstIndex(of: kind)!) }
        switch value {
        case .known(let string): return [kind(.knownString), UInt8(values.firstIndex(of: string)!)]
        case .string(let string):
            precondition(string.utf8.count <= 40)
            return [kind(.string), UInt8(string.utf8.count)] + Array(string.utf8)
        case .data(let data):
            precondition(data.count <= 64)
            return [kind(.data), UInt8(data.count)] + Array(data)
        case .integer(let number): return [kind(.integer)] + FuzzBytes.le(number)
        case .boolean(let flag): return [kind(.swiftBoolean), flag ? 1 : 0]
        case .date(let seconds): return [kind(.date)] + FuzzBytes.le(seconds.bitPattern)
        case .null: return [kind(.null)]
        case .accessControl(let protection, let flags):
            return [kind(.accessControl), UInt8(values.firstIndex(of: protection)!), UInt8(accessControlFlagChoices.firstIndex(of: flags)!)]
        case .reference(let index): return [kind(.persistentReference), 1, UInt8(index)]
        case .array(let elements):
            precondition(elements.count < 4)
            return [kind(.array), UInt8(elements.count)] + elements.flatMap(encode)
        case .dictionary(let entries): return [kind(.dictionary)] + encode(entries)
        }
    }
}
