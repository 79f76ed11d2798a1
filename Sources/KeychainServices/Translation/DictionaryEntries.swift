import Foundation
import SecStore

/// The keys and values of a SecItem dictionary, checked for what every call rejects: too
/// many keys, keys that are not strings, and missing values. Iterates as `(key, value)`
/// pairs sorted by key, so that the rules that read the pairs meet them in one order whatever
/// the dictionary's hashing (the checks here run before the sort: a dictionary with two bad
/// keys reports whichever comes first in its own order).
///
/// ```swift
/// let entries = try DictionaryEntries([kSecClass as String: kSecClassGenericPassword] as CFDictionary)
/// for (key, value) in entries { print(key, value) }   // class genp
/// ```
struct DictionaryEntries: Sequence {
    /// Apple's `QUERY_KEY_LIMIT`: a larger dictionary is `errSecParam`.
    static let keyLimit = 128

    private var entries: [(key: String, value: Any)] = []

    init(_ dictionary: NSDictionary) throws {
        let count = dictionary.count
        guard count <= Self.keyLimit else {
            throw SecStoreError.invalid("the dictionary has \(count) keys; at most \(Self.keyLimit) are allowed")
        }
        entries.reserveCapacity(count)
        if let stored = Self.storedPairs(of: dictionary) {
            for index in stored.keys.indices {
                let key = try DictionaryObject.string(ofKey: stored.keys[index]) ?? Self.key(stored.keys[index])
                let value: Any? = switch DictionaryObject.value(of: stored.values[index]) {
                case .value(let value): value
                case .none: nil
                case .unknown: dictionary.object(forKey: stored.keys[index]).flatMap(DictionaryValue.unwrapped)
                }
                entries.append((key, try Self.present(value, for: key)))
            }
        } else {
            for (rawKey, rawValue) in dictionary {
                let key = try Self.key(rawKey)
                entries.append((key, try Self.present(DictionaryValue.unwrapped(rawValue), for: key)))
            }
        }
        // In place: `sorted` would copy every pair into a new array.
        entries.sort { $0.key < $1.key }
    }

    subscript(key: String) -> Any? {
        // By index: `first(where:)` would copy every pair it looks at, value included.
        for index in entries.indices where entries[index].key == key {
            return entries[index].value
        }
        return nil
    }

    func makeIterator() -> IndexingIterator<[(key: String, value: Any)]> {
        entries.makeIterator()
    }

    /// The stored keys and objects, unconverted, of Foundation's own dictionary classes,
    /// whose `allKeys` and `allValues` list one storage in one order (a `[String: Any]` or
    /// `[CFString: Any]` bridged with `as CFDictionary` is one). `nil` for a subclass, which
    /// is read through Foundation's iteration.
    static func storedPairs(of dictionary: NSDictionary) -> (keys: [Any], values: [Any])? {
        let dictionaryClass = ObjectIdentifier(type(of: dictionary))
        guard dictionaryClass == ObjectIdentifier(NSDictionary.self) || dictionaryClass == ObjectIdentifier(NSMutableDictionary.self)
        else { return nil }
        let stored = (keys: dictionary.allKeys, values: dictionary.allValues)
        return stored.keys.count == stored.values.count ? stored : nil
    }

    private static func key(_ rawKey: Any) throws -> String {
        guard let key = rawKey as? String else {
            // Apple: a number key reads as an unknown attribute, any other type is a bad key.
            if rawKey is NSNumber { throw SecStoreError(.noSuchAttribute, "a dictionary key is a number, not a string") }
            throw SecStoreError.invalid("a dictionary key is a \(type(of: rawKey)), not a string")
        }
        return key
    }

    private static func present(_ value: Any?, for key: String) throws -> Any {
        guard let value else { throw SecStoreError.invalid("\"\(key)\" has no value (nil or NSNull)") }
        return value
    }
}
