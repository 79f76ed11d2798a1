import Foundation

/// Apple's access-control rules (`SecAccessControl`) as Linux can keep them, never weaker
/// than what the item asked for: the item's accessibility class applies first, and each
/// constraint only adds a condition. docs/accessibility.md, "Access control", has the table.
///
/// | constraint | satisfied here when |
/// | --- | --- |
/// | `userPresence`, `devicePasscode` | the passphrase was proven within ``AccessControlFlags/presenceReuseDuration`` (this handle's unlock, or `secstore unlock --for`) |
/// | `biometryAny`, `biometryCurrentSet`, `companion`, `applicationPassword` | never: Linux has no such hardware or prompt |
enum AccessControlRules {
    /// The checks on the access control of a new or changed item: known bits only; no
    /// `privateKeyUsage` (a Secure Enclave key's flag, meaningless on a password); and, as
    /// Apple refuses such items on a device without a passcode, a store with a passphrase
    /// whenever there is a constraint.
    static func checkNewItem(_ flags: AccessControlFlags, storeHasPassphrase: Bool) throws {
        guard AccessControlFlags.known.isSuperset(of: flags) else {
            throw SecStoreError.invalid("Unknown access-control flags 0x\(String(flags.subtracting(.known).rawValue, radix: 16)).")
        }
        if flags.contains(.privateKeyUsage) {
            throw SecStoreError.invalid("privateKeyUsage applies to Secure Enclave keys, which SecStore does not store.")
        }
        if flags.contains(.or) && flags.contains(.and) {
            throw SecStoreError.invalid("Access-control flags cannot ask for both .or and .and.")
        }
        if !flags.isDisjoint(with: .constraints) && !storeHasPassphrase {
            throw SecStoreError(.authenticationFailed, "Items with access-control constraints need a passphrase on the store, as Apple's need a device passcode. Set one (`secstore passphrase set`) first.")
        }
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
