/// How Apple's `query_applier` reads a dictionary key (reference §4.0): four-character keys
/// are attributes, every other key is dispatched on its first character.
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

    init(_ key: String) {
        if key.utf16.count == 4 {
            self = .attribute
            return
        }
        switch key.first {
        case "c": self = key == "class" ? .itemClass : .invalid
        case "m": self = .match
        case "r": self = .returning
        case "u": self = .use
        case "v": self = .value
        case "f": self = .ignored
        default: self = .invalid
        }
    }
}
