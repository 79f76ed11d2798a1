import Foundation

/// Apple's access-control rules (`SecAccessControl`) as Linux can keep them, never weaker
/// than what the item asked for: the item's accessibility class applies first, and each
/// constraint only adds a condition. docs/accessibility.md, "Access control", has the table.
///
/// | constraint | satisfied here when |
/// | --- | --- |
/// | `userPresence`, `devicePasscode` | the passphrase was proven within ``AccessControlFlags/presenceReuseDuration`` (this handle's unlock, or `secstore unlock --for`) |
/// | `biometryAny`, `biometryCurrentSet`, `companion`, `applicationPassword` | never: Linux has no such hardware or prompt |
package enum AccessControlRules {
    /// The checks on the access control of a new or changed item: known bits only; no
    /// `privateKeyUsage` (a Secure Enclave key's flag, meaningless on a password); and, as
    /// Apple refuses such items on a device without a passcode, a store with a passphrase
    /// whenever there is a constraint.
    static func checkNewItem(_ flags: AccessControlFlags, storeHasPassphrase: Bool) throws {
        try checkBitsAndCombinators(flags)
        if flags.contains(.privateKeyUsage) {
            throw SecStoreError.invalid("privateKeyUsage applies to Secure Enclave keys, which SecStore does not store.")
        }
        if !flags.isDisjoint(with: .constraints) && !storeHasPassphrase {
            throw SecStoreError(.authenticationFailed, "Items with access-control constraints need a passphrase on the store, as Apple's need a device passcode. Set one (`secstore passphrase set`) first.")
        }
    }

    /// The combinations Apple's `SecAccessControlCreateWithFlags` refuses with `errSecParam`
    /// (SecAccessControl.m): both `or` and `and`; both biometry flags; `userPresence` with any
    /// flag but `applicationPassword` and `privateKeyUsage`. Bits Apple does not define are
    /// refused too (Apple ignores them; an unknown condition must not vanish silently).
    ///
    /// ```swift
    /// try AccessControlRules.checkCreation([.biometryAny, .or, .devicePasscode])   // fine
    /// try AccessControlRules.checkCreation([.userPresence, .or, .biometryAny])     // throws
    /// ```
    package static func checkCreation(_ flags: AccessControlFlags) throws {
        try checkBitsAndCombinators(flags)
        if flags.isSuperset(of: [.biometryAny, .biometryCurrentSet]) {
            throw SecStoreError.invalid("Only one biometry flag can be set: .biometryAny or .biometryCurrentSet.")
        }
        if flags.contains(.userPresence) && !flags.subtracting([.userPresence, .applicationPassword, .privateKeyUsage]).isEmpty {
            throw SecStoreError.invalid(".userPresence can be combined only with .applicationPassword and .privateKeyUsage.")
        }
    }

    /// Known bits only, and not both `or` and `and`: checked on creation and on every new item.
    private static func checkBitsAndCombinators(_ flags: AccessControlFlags) throws {
        guard AccessControlFlags.known.isSuperset(of: flags) else {
            throw SecStoreError.invalid("Unknown access-control flags 0x\(String(flags.subtracting(.known).rawValue, radix: 16)).")
        }
        if flags.contains(.or) && flags.contains(.and) {
            throw SecStoreError.invalid("Access-control flags cannot ask for both .or and .and.")
        }
    }

    /// Apple refuses an item that would be synchronizable with an access control that has
    /// flags (SecItem.m, `SecItemAuthDoQuery`: "item with kSecAttrAccessControl is not
    /// synchronizable"): the add's attributes, or an update's changes, carrying both. An
    /// access control without flags only names the accessibility and may sync.
    static func checkSynchronizable(_ attributes: Attributes) throws {
        guard let flags = attributes.accessControlFlags, !flags.isEmpty,
              attributes[.synchronizable]?.boolValue == true else { return }
        throw SecStoreError.invalid("An item with access-control flags cannot be synchronizable: its constraints hold on this device only.")
    }

    /// Whether the item may be read or changed now, given when the passphrase was last
    /// proven. Throws `authenticationFailed` when no proof could ever satisfy the flags here
    /// (biometry, companion, application password), and `interactionNotAllowed` when a
    /// recent passphrase proof would.
    static func checkUse(_ flags: AccessControlFlags, passphraseProvenAt: Date?, now: Date = Date()) throws {
        let constraints = flags.intersection(.constraints)
        guard !constraints.isEmpty else { return }
        let presenceKinds: AccessControlFlags = [.userPresence, .devicePasscode]
        let satisfiable = constraints.intersection(presenceKinds)
        let unsatisfiable = constraints.subtracting(presenceKinds)
        // Every constraint must hold unless the flags say `or`.
        if flags.contains(.or) ? satisfiable.isEmpty : !unsatisfiable.isEmpty {
            throw SecStoreError(.authenticationFailed, "The item needs biometry, a companion device or an application password, which Linux does not have: it cannot be read here.")
        }
        // A proof from the future (the clock was set back since) proves nothing.
        let proven = passphraseProvenAt.map { (0...AccessControlFlags.presenceReuseDuration).contains(now.timeIntervalSince($0)) } ?? false
        guard proven else {
            throw SecStoreError(.interactionNotAllowed, "The item needs user presence: unlock the store with its passphrase (or `secstore unlock --for`) within the last 5 minutes.")
        }
    }
}
