/// The constraints of an item's access control (Apple's `SecAccessControlCreateFlags`, with
/// the same raw values): what must happen before the item's secret is read or changed. The
/// item's accessibility class still applies first; a flag only ever adds a condition.
///
/// ```swift
/// var attributes = Attributes()
/// attributes.accessibility = .whenUnlockedThisDeviceOnly
/// attributes.accessControlFlags = .userPresence   // a passphrase proof in the last 5 minutes
/// ```
///
/// On Linux the user proves presence with the store's passphrase (an unlock in this process,
/// or `secstore unlock --for`), within ``AccessControlFlags/presenceReuseDuration``.
/// Biometry, a paired companion device and an application password do not exist here: an
/// item that needs them can never be read (see docs/accessibility.md, "Access control").
public struct AccessControlFlags: OptionSet, Hashable, Sendable {
    /// The bits, as Apple's `CFOptionFlags`.
    public let rawValue: UInt

    /// Flags with these bits.
    ///
    /// ```swift
    /// let flags = AccessControlFlags(rawValue: 1 << 0)   // .userPresence, as kSecAccessControlUserPresence
    /// ```
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// The user proves presence (on Apple systems: biometry or passcode; here: the store's
    /// passphrase, within ``presenceReuseDuration``).
    public static let userPresence = AccessControlFlags(rawValue: 1 << 0)
    /// Any enrolled biometry. Linux has none: never satisfied.
    public static let biometryAny = AccessControlFlags(rawValue: 1 << 1)
    /// Apple's former name of ``biometryAny``.
    @available(*, deprecated, renamed: "biometryAny")
    public static let touchIDAny = AccessControlFlags(rawValue: 1 << 1)
    /// The biometry enrolled now. Linux has none: never satisfied.
    public static let biometryCurrentSet = AccessControlFlags(rawValue: 1 << 3)
    /// Apple's former name of ``biometryCurrentSet``.
    @available(*, deprecated, renamed: "biometryCurrentSet")
    public static let touchIDCurrentSet = AccessControlFlags(rawValue: 1 << 3)
    /// The device passcode: here, the store's passphrase, as for ``userPresence``.
    public static let devicePasscode = AccessControlFlags(rawValue: 1 << 4)
    /// A paired companion device (Apple Watch). Linux has none: never satisfied.
    public static let companion = AccessControlFlags(rawValue: 1 << 5)
    /// Apple's former name of ``companion``.
    @available(*, deprecated, renamed: "companion")
    public static let watch = AccessControlFlags(rawValue: 1 << 5)
    /// At least one of the constraints must be satisfied.
    public static let or = AccessControlFlags(rawValue: 1 << 14)
    /// Every constraint must be satisfied (also the rule when neither `or` nor `and` is given).
    public static let and = AccessControlFlags(rawValue: 1 << 15)
    /// A Secure Enclave private key's use. Keys are not stored here: refused on passwords.
    public static let privateKeyUsage = AccessControlFlags(rawValue: 1 << 30)
    /// An application-supplied password. Linux has no way to supply it: never satisfied.
    public static let applicationPassword = AccessControlFlags(rawValue: 1 << 31)

    /// How long a passphrase proof lets ``userPresence`` and ``devicePasscode`` items be
    /// read: 5 minutes, the longest reuse Apple allows for a biometric or passcode proof
    /// (`LATouchIDAuthenticationMaximumAllowableReuseDuration`).
    public static let presenceReuseDuration: Double = 300

    /// Every bit Apple defines.
    package static let known: AccessControlFlags = [
        .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion, .or, .and,
        .privateKeyUsage, .applicationPassword,
    ]
    /// The constraints (what must happen), without the `or` / `and` combinators.
    static let constraints: AccessControlFlags = [
        .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion, .applicationPassword,
    ]
}
