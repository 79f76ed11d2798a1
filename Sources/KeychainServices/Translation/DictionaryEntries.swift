import Foundation
import SecStore

/// The keys and values of a SecItem dictionary, checked for what every call rejects: too
/// many keys, keys that are not strings, and missing values.
struct DictionaryEntries {
    /// Apple's `QUERY_KEY_LIMIT`: a larger dictionary is `errSecParam`.
    static let keyLimit = 128

    /// The entries, sorted by key so that a dictionary breaking two rules always reports
    /// the same one.
    let entries: [(key: String, value: Any)]

    init(_ dictionary: NSDictionary) throws {
        guard dictionary.count <= Self.keyLimit else {
            throw SecStoreError.invalid("the dictionary has \(dictionary.count) keys; at most \(Self.keyLimit) are allowed")
        }
        var entries: [(key: String, value: Any)] = []
        entries.reserveCapacity(dictionary.count)
        for (rawKey, rawValue) in dictionary {
            guard let key = rawKey as? String else {
                // Apple: a number key reads as an unknown attribute, any other type is a bad key.
                if rawKey is NSNumber { throw SecStoreError(.noSuchAttribute, "a dictionary key is a number, not a string") }
                throw SecStoreError.invalid("a dictionary key is a \(type(of: rawKey)), not a string")
            }
            guard let value = DictionaryValue.unwrapped(rawValue) else {
                throw SecStoreError.invalid("\"\(key)\" has no value (nil or NSNull)")
            }
            entries.append((key, value))
        }
        self.entries = entries.sorted { $0.key < $1.key }
    }

    subscript(key: String) -> Any? {
        entries.first { $0.key == key }?.value
    }
}
