import SecStore

/// The access groups (collections) a caller may use, the default one first, and the one rule
/// by which a group name is compared: **byte for byte** (its UTF-8), as SecStore's own access
/// rules compare group names (`AccessRules`) and as the store keeps them. Swift's `String ==`
/// treats canonically equivalent spellings ("café" with U+00E9, and "cafe" + U+0301) as equal:
/// a check by `String` would let a program granted one spelling open the other's collection.
/// Every visibility check (objects, `GetSecrets`, `CreateCollection`, signals' audience) asks
/// ``contains(_:)``.
struct VisibleGroups: Equatable {
    /// The names, each once (by bytes), in the order granted.
    let names: [String]

    init(_ names: [String]) {
        var seen = Set<[UInt8]>()
        self.names = names.filter { seen.insert(Array($0.utf8)).inserted }
    }

    /// Whether `group` is one of ``names``, byte for byte.
    func contains(_ group: String) -> Bool {
        names.contains { Self.same($0, group) }
    }

    /// Whether two group names are the same group: the same bytes.
    static func same(_ one: String, _ other: String) -> Bool {
        UTF8Bytes.equal(one, other)
    }
}
