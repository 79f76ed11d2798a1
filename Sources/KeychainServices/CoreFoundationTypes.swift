import Foundation

// Apple's item API speaks Core Foundation. On Linux, Foundation's NS types play the roles
// of the containers, and Swift bridges them to and from String, Data, Dictionary and Array
// with `as`, so `query as CFDictionary`, `kSecClass as String` and `result as? Data` compile as on
// Apple systems.

/// `CFTypeRef`: any object a SecItem call hands back.
public typealias CFTypeRef = AnyObject
/// `CFString`: the type of every `kSec…` constant: a Swift `String`.
///
/// On Apple systems a `CFString` in a dictionary or an `AnyHashable` behaves as the
/// `String` it bridges to, so identical queries compare equal however they were built. On
/// Linux an `NSString` does not (`AnyHashable(NSString("genp")) != AnyHashable("genp")`, and
/// `NSDictionary.isEqual(to:)` fails on two dictionaries holding the same `NSString`), so
/// the constants are `String`s, which compare as Apple's do. `kSecClass as String`,
/// `kSecClass as CFString`, `String(kSecClass)` and `kSecAttrAccessibleWhenUnlocked as
/// CFTypeRef` compile as on Apple systems.
public typealias CFString = String
/// `CFDictionary`: queries, attributes and attribute results.
public typealias CFDictionary = NSDictionary
/// `CFArray`: results of `kSecMatchLimitAll`.
public typealias CFArray = NSArray
/// `CFData`: secrets and persistent references.
public typealias CFData = NSData
/// `CFNumber`: numeric attributes, such as `kSecAttrPort`, in attribute results.
public typealias CFNumber = NSNumber
/// `CFBoolean`: `kCFBooleanTrue` and `kCFBooleanFalse`, Swift `Bool`s for the reason
/// ``CFString`` is a `String`: queries holding them compare equal, as on Apple systems.
public typealias CFBoolean = Bool
/// `CFDate`: `kSecAttrCreationDate` and `kSecAttrModificationDate` in attribute results.
public typealias CFDate = NSDate
/// `OSStatus`: the result code of every SecItem call.
public typealias OSStatus = Int32
