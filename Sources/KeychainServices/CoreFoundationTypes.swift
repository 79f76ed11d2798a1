import Foundation

// Apple's item API speaks Core Foundation. On Linux, Foundation's NS types play those
// roles, and Swift bridges them to and from String, Data, Dictionary and Array with `as`,
// so `query as CFDictionary`, `kSecClass as String` and `result as? Data` compile as on
// Apple systems.

/// `CFTypeRef`: any object a SecItem call hands back.
public typealias CFTypeRef = AnyObject
/// `CFString`: the type of every `kSec…` constant.
public typealias CFString = NSString
/// `CFDictionary`: queries, attributes and attribute results.
public typealias CFDictionary = NSDictionary
/// `CFArray`: results of `kSecMatchLimitAll`.
public typealias CFArray = NSArray
/// `CFData`: secrets and persistent references.
public typealias CFData = NSData
/// `CFNumber`: numeric attributes, such as `kSecAttrPort`, in attribute results.
public typealias CFNumber = NSNumber
/// `CFBoolean`: `kCFBooleanTrue` and `kCFBooleanFalse`.
public typealias CFBoolean = NSNumber
/// `CFDate`: `kSecAttrCreationDate` and `kSecAttrModificationDate` in attribute results.
public typealias CFDate = NSDate
/// `OSStatus`: the result code of every SecItem call.
public typealias OSStatus = Int32
