import Foundation

// On Apple systems `kCFBooleanTrue` is a `CFBoolean!`, and queries put it where a boolean
// goes (`kSecReturnData as String: kCFBooleanTrue`). Here it is the Swift `Bool` `true`: the
// SecItem functions still tell it from the number 1, as Apple's tell `CFBoolean` from
// `CFNumber` (a Swift `Int` is not a `Bool`, and Foundation's boolean `NSNumber` is its own
// class).

/// `kCFBooleanTrue`: the boolean true, for return keys and boolean attributes.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecReturnData as String: kCFBooleanTrue]
/// ```
public let kCFBooleanTrue: CFBoolean! = true

/// `kCFBooleanFalse`: the boolean false.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecAttrSynchronizable as String: kCFBooleanFalse]
/// ```
public let kCFBooleanFalse: CFBoolean! = false

/// The value of a `CFBoolean` (`CFBooleanGetValue`).
///
/// ```swift
/// CFBooleanGetValue(kCFBooleanTrue)   // true
/// ```
public func CFBooleanGetValue(_ boolean: CFBoolean!) -> Bool {
    boolean ?? false
}
