import Foundation
import SecStore

/// `SecAccessControlCreateFlags`: the constraints of an access control, with Apple's members
/// and raw values (`CFOptionFlags`). SecStore's `AccessControlFlags` is the one type.
///
/// ```swift
/// let flags: SecAccessControlCreateFlags = [.userPresence]
/// let same = SecAccessControlCreateFlags(rawValue: CFOptionFlags(1 << 0))
/// ```
public typealias SecAccessControlCreateFlags = AccessControlFlags

/// `SecAccessControl`: an item's protection (its accessibility class) and the constraints
/// on using it, for `kSecAttrAccessControl`. A value: two made from the same protection and
/// flags are equal and hash alike, so queries holding one compare as on Apple systems.
///
/// ```swift
/// var error: Unmanaged<CFError>?
/// guard let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
///                                                    .userPresence, &error) else { … }
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecAttrAccessControl as String: access, …]
/// ```
///
/// What each flag means on Linux is in docs/accessibility.md ("Access control"): presence is
/// a recent passphrase proof; biometry, a companion device and an application password do
/// not exist here, so items that need them can never be read.
public final class SecAccessControl: Hashable, Sendable, CustomStringConvertible {
    /// The item's accessibility class.
    let protection: Accessibility
    /// The constraints.
    let flags: AccessControlFlags

    init(protection: Accessibility, flags: AccessControlFlags) {
        self.protection = protection
        self.flags = flags
    }

    /// Equal when the protection and the flags are.
    public static func == (lhs: SecAccessControl, rhs: SecAccessControl) -> Bool {
        lhs.protection == rhs.protection && lhs.flags == rhs.flags
    }

    /// Hashes the protection and the flags, consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(protection)
        hasher.combine(flags.rawValue)
    }

    /// The protection's code and the flags, such as `<SecAccessControlRef: ak; flags 0x1>`.
    public var description: String {
        "<SecAccessControlRef: \(protection.rawValue); flags 0x\(String(flags.rawValue, radix: 16))>"
    }
}

/// Makes an access control from a protection (a `kSecAttrAccessible…` value) and flags
/// (Apple's `SecAccessControlCreateWithFlags`).
///
/// ```swift
/// var error: Unmanaged<CFError>?
/// let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked as CFTypeRef, .userPresence, &error)
/// ```
///
/// - Parameters:
///   - allocator: ignored; pass `kCFAllocatorDefault` or `nil`.
///   - protection: one of the `kSecAttrAccessible…` constants.
///   - flags: the constraints.
///   - error: receives, on failure, a retained `CFError` in ``kCFErrorDomainOSStatus`` with
///     code `errSecParam`, as Apple's does for a protection that is not one of the constants.
/// - Returns: the access control, or `nil` when `protection` is not an accessibility value,
///   or the flags combine as Apple's function refuses (`AccessControlRules.checkCreation`:
///   `.or` with `.and`, both biometry flags, `.userPresence` with another constraint) or
///   have bits Apple does not define.
public func SecAccessControlCreateWithFlags(_ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
                                            _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecAccessControl? {
    SecAccessControl.make(protection as Any, flags, error)
}

/// The same, for a protection given as the constant itself
/// (`SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)`),
/// which is a `CFString` here rather than an object.
///
/// ```swift
/// let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .userPresence, nil)
/// ```
public func SecAccessControlCreateWithFlags(_ allocator: CFAllocator?, _ protection: CFString, _ flags: SecAccessControlCreateFlags,
                                            _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecAccessControl? {
    SecAccessControl.make(protection, flags, error)
}

extension SecAccessControl {
    /// The one implementation of both `SecAccessControlCreateWithFlags` spellings.
    static func make(_ protection: Any, _ flags: AccessControlFlags,
                     _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecAccessControl? {
        guard let name = DictionaryValue(protection)?.string, let accessibility = Accessibility(rawValue: name),
              (try? AccessControlRules.checkCreation(flags)) != nil else {
            error?.pointee = Unmanaged.passRetained(CFErrorCreate(kCFAllocatorDefault, kCFErrorDomainOSStatus, CFIndex(errSecParam), nil))
            return nil
        }
        return SecAccessControl(protection: accessibility, flags: flags)
    }
}
