import SecStore

/// The `kSecReturn…` keys a dictionary sets to true.
struct ReturnKeys: OptionSet, Sendable {
    let rawValue: UInt8

    static let data = ReturnKeys(rawValue: 1 << 0)
    static let attributes = ReturnKeys(rawValue: 1 << 1)
    static let reference = ReturnKeys(rawValue: 1 << 2)
    static let persistentReference = ReturnKeys(rawValue: 1 << 3)

    /// The return key named `key`, or `nil` when `key` is not one.
    init?(key: String) {
        switch key {
        case "r_Data": self = .data
        case "r_Attributes": self = .attributes
        case "r_Ref": self = .reference
        case "r_PersistentRef": self = .persistentReference
        default: return nil
        }
    }

    init(rawValue: UInt8) { self.rawValue = rawValue }

    var count: Int { rawValue.nonzeroBitCount }

    /// What `SecItemCopyMatching` actually asks for: Apple's client adds
    /// `kSecReturnAttributes` whenever `kSecReturnData` comes with another return key
    /// (reference §4.3), so such results always carry the attributes. `SecItemAdd` does not.
    var addingAttributesImpliedByData: ReturnKeys {
        contains(.data) && count > 1 ? union(.attributes) : self
    }

    /// The parts of each item to read from the store. Passwords have no object form, so
    /// `kSecReturnRef` needs nothing read.
    var storeOptions: ReturnOptions {
        var options: ReturnOptions = []
        if contains(.data) { options.insert(.data) }
        if contains(.attributes) { options.insert(.attributes) }
        if contains(.persistentReference) { options.insert(.persistentReference) }
        return options
    }
}
