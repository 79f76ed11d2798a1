/// Apple's access-group rules for one ``StoreAccess``, resolved once per store handle:
/// every query and every add consults them.
struct AccessRules: Sendable {
    /// The groups a query without an access group searches, in Apple's order; `nil` for the
    /// owner, who sees every group.
    let visibleGroups: [String]?
    /// The same groups as UTF-8 bytes. Swift's `String ==` treats canonically equivalent
    /// spellings ("é" and "e" + U+0301) as equal, but Apple compares group names exactly, and
    /// tags hash the bytes: a check by `String` would let one spelling open another's group.
    private let visibleSet: Set<[UInt8]>?
    /// Where an add without a group goes; `nil` for the owner, who has no default.
    let defaultGroup: String?

    /// The groups a process may use, in Apple's order (`SecTaskCopyAccessGroups`): keychain
    /// access groups, then the application identifier, then application groups. Duplicates
    /// are found by bytes: group names compare exactly, as on Apple systems. An empty name is
    /// no group (an entitlements file with one is refused), so `Entitlements` given in code with
    /// only empty names have no group at all.
    static func accessGroups(of entitlements: Entitlements) -> [String] {
        var seen = Set<[UInt8]>()
        let ordered = entitlements.keychainAccessGroups + [entitlements.applicationIdentifier].compactMap { $0 }
            + entitlements.applicationGroups
        return ordered.filter { !$0.isEmpty && seen.insert(Array($0.utf8)).inserted }
    }

    /// Apple's default group for new items: the first of ``accessGroups(of:)``, so the first
    /// `keychain-access-groups` entry, else the application identifier. The typed API, the
    /// SecItem functions and the `secstore` tool all place new items by this rule.
    static func defaultGroup(of entitlements: Entitlements) -> String? {
        accessGroups(of: entitlements).first
    }

    init(_ access: StoreAccess) {
        switch access {
        case .entitled(let entitlements):
            let groups = entitlements.accessGroups
            visibleGroups = groups
            visibleSet = Set(groups.map { Array($0.utf8) })
            defaultGroup = Self.defaultGroup(of: entitlements)
        case .owner:
            visibleGroups = nil
            visibleSet = nil
            defaultGroup = nil
        }
    }

    /// A process with no group at all may do nothing (`missingEntitlement`).
    func checkEntitled() throws {
        if let visibleGroups, visibleGroups.isEmpty {
            throw SecStoreError(.missingEntitlement, "This process has no keychain access groups and no application identifier. Declare them in its entitlements (SECSTORE_ENTITLEMENTS or Entitlements(...)).")
        }
    }

    /// Naming a group the process is not entitled to is `missingEntitlement`.
    func checkEntitled(toGroup group: String) throws {
        try checkEntitled()
        if let visibleSet, !visibleSet.contains(Array(group.utf8)) {
            throw SecStoreError(.missingEntitlement, "This process is not entitled to the access group \"\(group)\". Add it to `keychain-access-groups` in the entitlements, or leave the group out.")
        }
    }

    /// A group an item is put into (an add's, an update's new group): one the process is
    /// entitled to, and never the empty name, which no entitlements grant, so that even the
    /// owner's item there would be out of every application's reach (`invalidParameter`).
    func checkEntitled(toNewGroup group: String) throws {
        try checkEntitled(toGroup: group)
        if group.isEmpty {
            throw SecStoreError.invalid("An access group needs a name; the item's is empty. Name its group.")
        }
    }

    /// The group of a new item: the one it names, else the default group (the first
    /// entitled one). The owner has no default group.
    func groupForNewItem(explicit: String?) throws -> String {
        if let explicit {
            try checkEntitled(toNewGroup: explicit)
            return explicit
        }
        try checkEntitled()
        guard let defaultGroup else {
            throw SecStoreError.invalid("Owner access has no default access group: name the item's access group.")
        }
        return defaultGroup
    }
}
