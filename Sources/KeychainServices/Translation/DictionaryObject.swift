import Foundation

/// The value of one object stored in an `NSDictionary`, as Foundation's lookup
/// (`NSDictionary.object(forKey:)`, and so `for (key, value) in dictionary`) hands it out
/// and ``DictionaryValue`` then sorts it: an `NSString` as a `String`, `NSData` as `Data`,
/// `NSDate` as a `Date`, Foundation's boolean numbers as a `Bool`, other numbers as an
/// `NSNumber`, `NSNull` as no value.
///
/// Foundation gets there through generic bridging: a cast to its boxing class, a cast to a
/// bridging protocol (a conformance lookup in the runtime's cache) and a call through it, for
/// every value, plus a hash lookup of the key. That was most of a `SecItemCopyMatching`
/// call's parsing time (perf: `swift_dynamicCast`, `swift_conformsToProtocol…`,
/// `CFStringHashNSString`). Here the object's exact class is compared with the few classes a
/// SecItem dictionary holds, which costs a load and a compare. Any other class (an
/// `NSArray`, a subclass, a boxed Swift value such as a ``SecAccessControl``) is
/// ``Converted/unknown``, and the caller asks Foundation, so every value still reads exactly
/// as Foundation would give it.
///
/// ```swift
/// switch DictionaryObject.value(of: NSString(string: "alice") as Any) {
/// case .value(let value): print(value.string ?? "")   // "alice"
/// case .none, .unknown: break
/// }
/// ```
enum DictionaryObject {
    enum Converted {
        /// The value Foundation's lookup returns for the object, sorted.
        case value(DictionaryValue)
        /// `NSNull`: no value.
        case none
        /// A class this fast path does not know: ask Foundation.
        case unknown
    }

    /// The class of Foundation's boolean numbers (`true as AnyObject`, `NSNumber(value: true)`),
    /// which Foundation's lookup returns as `Bool`.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))
    private static let stringClass = ObjectIdentifier(NSString.self)
    private static let mutableStringClass = ObjectIdentifier(NSMutableString.self)
    private static let dataClass = ObjectIdentifier(NSData.self)
    private static let mutableDataClass = ObjectIdentifier(NSMutableData.self)
    private static let numberClass = ObjectIdentifier(NSNumber.self)
    private static let dateClass = ObjectIdentifier(NSDate.self)
    private static let nullClass = ObjectIdentifier(NSNull.self)

    /// Whether `number` is one of Foundation's booleans (`kCFBooleanTrue`, a bridged `Bool`),
    /// which SecItem dictionaries tell apart from `NSNumber(value: 1)` as Apple tells
    /// `CFBoolean` from `CFNumber`.
    static func isBoolean(_ number: NSNumber) -> Bool {
        ObjectIdentifier(type(of: number)) == booleanClass
    }

    /// The value of `stored`, an object as `allValues` lists it.
    static func value(of stored: Any) -> Converted {
        let storedClass = ObjectIdentifier(type(of: stored))
        if storedClass == stringClass || storedClass == mutableStringClass {
            return .value(.string(unsafeDowncast(object(in: stored), to: NSString.self) as String))
        }
        if storedClass == booleanClass {
            return .value(.boolean(unsafeDowncast(object(in: stored), to: NSNumber.self).boolValue))
        }
        if storedClass == numberClass {
            return .value(.number(unsafeDowncast(object(in: stored), to: NSNumber.self)))
        }
        if storedClass == dataClass || storedClass == mutableDataClass {
            let data = unsafeDowncast(object(in: stored), to: NSData.self)
            return .value(.data(Data(bytes: data.bytes, count: data.length)))
        }
        if storedClass == dateClass {
            return .value(.date(Date(timeIntervalSinceReferenceDate: unsafeDowncast(object(in: stored), to: NSDate.self).timeIntervalSinceReferenceDate)))
        }
        if storedClass == nullClass {
            return .none
        }
        return .unknown
    }

    /// The key as a `String` when it is an `NSString` (what a `[String: Any]` or a
    /// `[CFString: Any]` holds once bridged); `nil` for any other class.
    static func string(ofKey stored: Any) -> String? {
        let keyClass = ObjectIdentifier(type(of: stored))
        guard keyClass == stringClass || keyClass == mutableStringClass else { return nil }
        return unsafeDowncast(object(in: stored), to: NSString.self) as String
    }

    /// The object an `Any` holds, for an `Any` whose dynamic type was just found to be one of
    /// the classes above. An existential keeps a class reference in the first word of its
    /// inline buffer (the Swift ABI's opaque existential container), so this is a load and a
    /// retain; `as!` costs a trip through the runtime's generic `swift_dynamicCast` (about 400
    /// instructions, 8 per query: a seventh of reading one).
    private static func object(in stored: Any) -> AnyObject {
        assert(type(of: stored) is AnyClass)
        return withUnsafeBytes(of: stored) { $0.load(as: AnyObject.self) }
    }
}
