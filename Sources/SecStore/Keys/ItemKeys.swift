/// The two keys that seal the items of one accessibility class, derived from its class key.
struct ItemKeys: Sendable {
    /// Seals an item's attributes.
    let metadata: SecureBytes
    /// Seals an item's secret.
    let secret: SecureBytes

    init(classKey: SecureBytes) throws {
        self = try classKey.withUnsafeBytes { try ItemKeys(classKeyBytes: $0) }
    }

    /// From a class key's bytes (unwrapped into a wiped buffer): both keys in one guarded region.
    init(classKeyBytes classKey: UnsafeRawBufferPointer) throws {
        let keys = try SecureBytes.group([KeyDerivation.keyByteCount, KeyDerivation.keyByteCount]) { keys in
            Self.derive(metadata: keys[0], secret: keys[1], from: classKey)
        }
        self.init(metadata: keys[0], secret: keys[1])
    }

    /// Keys already derived (``derive(metadata:secret:from:)``), such as several classes' keys
    /// made in one guarded region.
    init(metadata: SecureBytes, secret: SecureBytes) {
        self.metadata = metadata
        self.secret = secret
    }

    /// Writes the two keys of the class whose key is `classKey` into guarded buffers.
    static func derive(metadata: UnsafeMutableRawBufferPointer, secret: UnsafeMutableRawBufferPointer, from classKey: UnsafeRawBufferPointer) {
        KeyDerivation.derive(into: metadata, from: classKey, id: 1, context: "SSITEMMD")
        KeyDerivation.derive(into: secret, from: classKey, id: 2, context: "SSITEMSC")
    }
}

extension Accessibility {

    /// Classes that stay readable after the first unlock since boot, in every process.
    var staysUnlockedAfterFirstUnlock: Bool { rawValue.hasPrefix("c") }
}
