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

/// How a class key is wrapped in the `keys` table.
enum KeyProtection: Int64, Sendable {
    /// Under a key derived from the master key: readable whenever the device key is.
    case device = 0
    /// Under a key that needs both the master key and the passphrase.
    case passphrase = 1
}

/// Names and associated data of the rows of the `keys` table.
enum KeyRecord {
    static let master = "master"

    static func className(_ accessibility: Accessibility) -> String { "class." + accessibility.rawValue }

    /// Binds a wrapped key to its store, its name and how it is protected.
    static func associatedData(storeID: [UInt8], name: String, protection: KeyProtection) -> [UInt8] {
        Array("secstore/key/v1".utf8) + storeID + Array(name.utf8) + [UInt8(protection.rawValue)]
    }
}
