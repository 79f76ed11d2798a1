import Foundation

// On Apple systems `kCFBooleanTrue` is a `CFBoolean!`, and queries put it where a boolean
// goes (`kSecReturnData as String: kCFBooleanTrue`). Foundation's boolean NSNumber plays the
// same role here: it is a distinct class from the NSNumber of an integer, so the SecItem
// functions can tell `kCFBooleanTrue` from `NSNumber(value: 1)`, as Apple's do.

/// `kCFBooleanTrue`: the boolean true, for return keys and boolean attributes.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecReturnData as String: kCFBooleanTrue]
/// ```
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)

/// `kCFBooleanFalse`: the boolean false.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
///                             kSecAttrSynchronizable as String: kCFBooleanFalse]
/// ```
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)
