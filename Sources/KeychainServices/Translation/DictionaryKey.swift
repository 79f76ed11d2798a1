/// How Apple's `query_applier` reads a dictionary key (reference §4.0): four-character keys
/// are attributes, every other key is dispatched on its first character.
///
/// ```swift
/// DictionaryKey("acct")           // .attribute
/// DictionaryKey("r_Data")         // .returning
/// DictionaryKey("persistref")     // .invalid
/// ```
enum DictionaryKey: Equatable {
    /// `kSecClass`.
    case itemClass
    /// An attribute (`"acct"`, `"svce"`, …) or one Apple treats as such (`"nleg"`).
    case attribute
    /// A match key (`kSecMatch…`).
    case match
    /// A return key (`kSecReturn…`).
    case returning
    /// A use key (`kSecUse…`).
    case use
    /// A value key (`kSecValue…`).
    case value
    /// A key Apple skips (first character `f`).
    case ignored
    /// Anything else, such as `"persistref"` or `"zz_key"`: `errSecParam`.
    case invalid

    /// Counted and dispatched in UTF-16 code units, as Apple's `CFStringGetLength` and
    /// `CFStringGetCharacterAtIndex(key, 0)` do (for a native ASCII string both are O(1);
    /// `key.first` would break the string into grapheme clusters).
    init(_ key: String) {
        let units = key.utf16
        if units.count == 4 {
            self = .attribute
            return
        }
        switch units.first {
        case Self.unit("c"): self = key == "class" ? .itemClass : .invalid
        case Self.unit("m"): self = .match
        case Self.unit("r"): self = .returning
        case Self.unit("u"): self = .use
        case Self.unit("v"): self = .value
        case Self.unit("f"): self = .ignored
        default: self = .invalid
        }
    }

    private static func unit(_ character: Unicode.Scalar) -> UInt16 {
        UInt16(character.value)
    }
}
