/// When an item's secret can be read: `kSecAttrAccessible`.
///
/// ```swift
/// try store.add(.genericPassword(service: "sync", account: "daemon", data: token,
///                                accessibility: .afterFirstUnlock))
/// ```
///
/// On Linux a store with no passphrase behaves like a device with no passcode: every
/// class but ``whenPasscodeSetThisDeviceOnly`` is readable. See `docs/accessibility.md`.
public struct Accessibility: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Apple's value (`kSecAttrAccessibleWhenUnlocked` is `"ak"`).
    public let rawValue: String
    /// Apple's keybag class number, also the `accessibility` column on disk.
    let code: UInt8

    /// The class with Apple's value `rawValue` (`"ak"`, `"cku"`, …), or `nil` for any other string.
    public init?(rawValue: String) {
        guard let match = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = match
    }

    init?(code: UInt8) {
        guard let match = Self.byCode[code] else { return nil }
        self = match
    }

    private static let byCode = CodeTable(allCases, code: \.code)

    private init(_ rawValue: String, _ code: UInt8) {
        self.rawValue = rawValue
        self.code = code
    }

    /// Readable while the store is unlocked. The default, as on Apple systems.
    public static let whenUnlocked = Accessibility("ak", 6)
    /// Readable after the first unlock since boot, by any process of the user.
    public static let afterFirstUnlock = Accessibility("ck", 7)
    /// Readable whenever the device key is. Deprecated on Apple systems; accepted here.
    public static let always = Accessibility("dk", 8)
    /// As ``whenUnlocked``, and never exported from this machine.
    public static let whenUnlockedThisDeviceOnly = Accessibility("aku", 9)
    /// As ``afterFirstUnlock``, and never exported from this machine.
    public static let afterFirstUnlockThisDeviceOnly = Accessibility("cku", 10)
    /// As ``always``, and never exported from this machine.
    public static let alwaysThisDeviceOnly = Accessibility("dku", 11)
    /// Readable only while a passphrase is set and the store is unlocked; removing the
    /// passphrase deletes these items.
    public static let whenPasscodeSetThisDeviceOnly = Accessibility("akpu", 12)

    /// Every accessibility class, in the order of Apple's keybag class numbers.
    public static let allCases: [Accessibility] = [
        .whenUnlocked, .afterFirstUnlock, .always, .whenUnlockedThisDeviceOnly,
        .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly, .whenPasscodeSetThisDeviceOnly,
    ]

    /// `…ThisDeviceOnly` classes never leave the machine: export leaves them out.
    public var isThisDeviceOnly: Bool { rawValue.hasSuffix("u") }
    /// Whether a store passphrase, once set, protects this class: every class but
    /// ``always`` and ``alwaysThisDeviceOnly``.
    ///
    /// ```swift
    /// Accessibility.whenUnlocked.isPassphraseProtected   // true
    /// ```
    public var isPassphraseProtected: Bool { rawValue.hasPrefix("a") || rawValue.hasPrefix("c") }

    /// The Swift name of the class, such as `afterFirstUnlock`, for messages and logs.
    public var description: String {
        switch rawValue {
        case "ak": "whenUnlocked"
        case "ck": "afterFirstUnlock"
        case "dk": "always"
        case "aku": "whenUnlockedThisDeviceOnly"
        case "cku": "afterFirstUnlockThisDeviceOnly"
        case "dku": "alwaysThisDeviceOnly"
        default: "whenPasscodeSetThisDeviceOnly"
        }
    }
}
