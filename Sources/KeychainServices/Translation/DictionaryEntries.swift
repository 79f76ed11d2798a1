import Foundation
import SecStore

/// The keys and values of a SecItem dictionary, checked for what every call rejects: too
/// many keys, keys that are not strings, and missing values. Each key is classified once
/// (``DictionaryKey``) and each value sorted by type once (``DictionaryValue``). Iterates
/// the entries sorted by key, so that the rules that read them meet them in one order
/// whatever the dictionary's hashing (the checks here run before the sort: a dictionary with
/// two bad keys reports whichever comes first in its own order).
///
/// ```swift
/// let entries = try DictionaryEntries([kSecClass as String: kSecClassGenericPassword] as CFDictionary)
/// for entry in entries { print(entry.key, entry.kind, entry.value) }   // class itemClass string("genp")
/// ```
struct DictionaryEntries: Sequence {
    /// Apple's `QUERY_KEY_LIMIT`: a larger dictionary is `errSecParam`.
    static let keyLimit = 128

    struct Entry {
        let key: String
        let kind: DictionaryKey
        let value: DictionaryValue
    }

    private var entries: [Entry] = []

    init(_ dictionary: NSDictionary) throws {
        let count = dictionary.count
        guard count <= Self.keyLimit else {
            throw SecStoreError.invalid("the dictionary has \(count) keys; at most \(Self.keyLimit) are allowed")
        }
        entries.reserveCapacity(count)
        if let stored = Self.storedPairs(of: dictionary) {
            for index in stored.keys.indices {
                let key = try DictionaryObject.string(ofKey: stored.keys[index]) ?? Self.key(stored.keys[index])
                let value: DictionaryValue? = switch DictionaryObject.value(of: stored.values[index]) {
                case .value(let value): value
                case .none: nil
                case .unknown: dictionary.object(forKey: stored.keys[index]).flatMap(DictionaryValue.init)
                }
                entries.append(Entry(key: key, kind: DictionaryKey(key), value: try Self.present(value, for: key)))
            }
        } else {
            for (rawKey, rawValue) in dictionary {
                let key = try Self.key(rawKey)
                entries.append(Entry(key: key, kind: DictionaryKey(key), value: try Self.present(DictionaryValue(rawValue), for: key)))
            }
        }
        // In place: `sorted` would copy every entry into a new array.
        entries.sort { $0.key < $1.key }
    }

    /// The value of `key`, which is of `kind`: only keys of that kind are compared.
    ///
    /// ```swift
    /// entries.value(of: Keys.accessible, kind: .attribute)?.string   // "ak"
    /// ```
    func value(of key: String, kind: DictionaryKey) -> DictionaryValue? {
        firstValue(ofKind: kind) { $0 == key }
    }

    /// `kSecClass`'s value: the one key of its kind, found without comparing strings.
    var itemClassValue: DictionaryValue? {
        firstValue(ofKind: .itemClass) { _ in true }
    }

    /// The value of the first entry of `kind` whose key `matches`: keys of other kinds are
    /// not compared.
    private func firstValue(ofKind kind: DictionaryKey, where matches: (String) -> Bool) -> DictionaryValue? {
        // By index: `first(where:)` would copy every entry it looks at.
        for index in entries.indices where entries[index].kind == kind && matches(entries[index].key) {
            return entries[index].value
        }
        return nil
    }

    func makeIterator() -> IndexingIterator<[Entry]> {
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

    private static func present(_ value: DictionaryValue?, for key: String) throws -> DictionaryValue {
        guard let value else { throw SecStoreError.invalid("\"\(key)\" has no value (nil or NSNull)") }
        return value
    }
}
