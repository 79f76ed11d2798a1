import Foundation
#if canImport(CoreFoundation) && !canImport(Darwin)
// For CFDictionaryGetKeysAndValues only (``DictionaryEntries/forEachStoredPair(of:_:)``); its
// type names stay this module's own (`CFDictionary` is `NSDictionary` here).
internal import CoreFoundation
#endif
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
        let readStored = try Self.forEachStoredPair(of: dictionary) { storedKey, storedValue in
            let key = try DictionaryObject.string(ofKey: storedKey) ?? Self.key(storedKey)
            let value: DictionaryValue? = switch DictionaryObject.value(of: storedValue) {
            case .value(let value): value
            case .none: nil
            case .unknown: dictionary.object(forKey: storedKey).flatMap(DictionaryValue.init)
            }
            entries.append(Entry(key: key, kind: DictionaryKey(key), value: try Self.present(value, for: key)))
        }
        if !readStored {
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

    /// Calls `body` with each stored key and object, unconverted, of Foundation's own
    /// dictionary classes (a `[String: Any]` or `[CFString: Any]` bridged with
    /// `as CFDictionary` is one) and returns true; returns false without calling it for a
    /// subclass, which is read through Foundation's iteration.
    ///
    /// An immutable `NSDictionary` is listed by CoreFoundation's `CFDictionaryGetKeysAndValues`
    /// into a stack buffer: the objects as stored, each handed on without a copy.
    /// `allKeys` and `allValues` build two `[Any]` arrays instead, wrapping every object:
    /// about 4k instructions of a 64k `SecItemCopyMatching` (docs/performance.md). A mutable
    /// dictionary's count could change between sizing the buffer and filling it, so it is
    /// listed through `allKeys` and `allValues`, which list one storage in one order.
    static func forEachStoredPair(of dictionary: NSDictionary, _ body: (_ key: Any, _ object: Any) throws -> Void) rethrows -> Bool {
        let dictionaryClass = ObjectIdentifier(type(of: dictionary))
        #if canImport(CoreFoundation) && !canImport(Darwin)
        if dictionaryClass == ObjectIdentifier(NSDictionary.self) {
            let count = dictionary.count
            try withUnsafeTemporaryAllocation(of: UnsafeRawPointer?.self, capacity: Swift.max(1, 2 * count)) { buffer in
                let keys = buffer.baseAddress!, objects = keys + count
                // Toll-free bridged, as Foundation itself hands its objects to CoreFoundation.
                CFDictionaryGetKeysAndValues(unsafeBitCast(dictionary, to: CoreFoundation.CFDictionary.self), keys, objects)
                for index in 0..<count {
                    guard let key = keys[index], let object = objects[index] else { continue }
                    try body(Unmanaged<AnyObject>.fromOpaque(key).takeUnretainedValue(),
                             Unmanaged<AnyObject>.fromOpaque(object).takeUnretainedValue())
                }
            }
            return true
        }
        #endif
        guard dictionaryClass == ObjectIdentifier(NSDictionary.self) || dictionaryClass == ObjectIdentifier(NSMutableDictionary.self)
        else { return false }
        let keys = dictionary.allKeys, objects = dictionary.allValues
        guard keys.count == objects.count else { return false }
        for index in keys.indices { try body(keys[index], objects[index]) }
        return true
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
