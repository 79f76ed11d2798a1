/// The two keys that seal the items of one accessibility class, derived from its class key.
struct ItemKeys: Sendable {
    /// Seals an item's attributes.
    let metadata: SecureBytes
    /// Seals an item's secret.
    let secret: SecureBytes

    init(classKey: SecureBytes) throws {
        metadata = try KeyDerivation.subkey(of: classKey, id: 1, context: "SSITEMMD")
        secret = try KeyDerivation.subkey(of: classKey, id: 2, context: "SSITEMSC")
    }
}

extension Accessibility {

    /// Classes that stay readable after the first unlock since boot, in every process.
    var staysUnlockedAfterFirstUnlock: Bool { rawValue.hasPrefix("c") }
}
