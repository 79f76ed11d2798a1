import Foundation

// `CFError` and its functions, as keychain code uses them: an `Unmanaged<CFError>?`
// out-parameter filled by `SecAccessControlCreateWithFlags`, read with
// `takeRetainedValue()` and the `CFErrorGet…` functions, or thrown as a Swift `Error`.
// Foundation's `NSError` plays the role, as `CFError` is toll-free bridged to it on Apple
// systems.

/// `CFError`: an error with a domain, a code and a user-info dictionary.
///
/// ```swift
/// var error: Unmanaged<CFError>?
/// guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, &error) else {
///     throw error!.takeRetainedValue() as Error
/// }
/// ```
public typealias CFError = NSError
/// `CFErrorDomain`: the domain of a ``CFError``.
public typealias CFErrorDomain = CFString

/// `kCFErrorDomainOSStatus`: the domain of errors whose code is an `OSStatus`, as the
/// Security functions report them.
public let kCFErrorDomainOSStatus: CFErrorDomain! = NSOSStatusErrorDomain
/// `kCFErrorDomainPOSIX`: the domain of errors whose code is an `errno` value.
public let kCFErrorDomainPOSIX: CFErrorDomain! = NSPOSIXErrorDomain
/// `kCFErrorDescriptionKey`: the user-info key of the error's description.
public let kCFErrorDescriptionKey: CFString! = NSLocalizedDescriptionKey

/// The domain of `error` (`CFErrorGetDomain`).
///
/// ```swift
/// if CFErrorGetDomain(error) as String == kCFErrorDomainOSStatus as String { … }
/// ```
public func CFErrorGetDomain(_ error: CFError!) -> CFErrorDomain! {
    error.map { $0.domain as CFErrorDomain }
}

/// The code of `error` (`CFErrorGetCode`): for ``kCFErrorDomainOSStatus``, an `OSStatus`.
///
/// ```swift
/// let status = OSStatus(CFErrorGetCode(error))   // errSecParam
/// ```
public func CFErrorGetCode(_ error: CFError!) -> CFIndex {
    error?.code ?? 0
}

/// A copy of the user-info dictionary of `error` (`CFErrorCopyUserInfo`); empty when it
/// has none, as on Apple systems.
///
/// ```swift
/// let info = CFErrorCopyUserInfo(error) as? [String: Any]
/// ```
public func CFErrorCopyUserInfo(_ error: CFError!) -> CFDictionary! {
    NSDictionary(dictionary: error?.userInfo ?? [:])
}

/// The description of `error` (`CFErrorCopyDescription`).
///
/// ```swift
/// var error: Unmanaged<CFError>?
/// if SecAccessControlCreateWithFlags(nil, "not a protection" as CFTypeRef, [], &error) == nil {
///     print(CFErrorCopyDescription(error!.takeRetainedValue()) as String)
/// }
/// ```
public func CFErrorCopyDescription(_ error: CFError!) -> CFString! {
    error.map { $0.localizedDescription as CFString }
}

/// A new error (`CFErrorCreate`). The allocator is ignored (there is one).
///
/// ```swift
/// let error = CFErrorCreate(kCFAllocatorDefault, kCFErrorDomainOSStatus, CFIndex(errSecParam), nil)
/// ```
public func CFErrorCreate(_ allocator: CFAllocator!, _ domain: CFErrorDomain!, _ code: CFIndex,
                          _ userInfo: CFDictionary!) -> CFError! {
    NSError(domain: domain.map { $0 as String } ?? NSOSStatusErrorDomain, code: code,
            userInfo: (userInfo as? [String: Any]) ?? [:])
}
