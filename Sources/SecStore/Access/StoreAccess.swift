/// Who is asking: an application bound by its entitlements, or the store's owner.
///
/// ```swift
/// let app = try SecretStore(at: url, options: .init(access: .entitled(entitlements)))
/// let admin = try SecretStore(at: url, options: .init(access: .owner))   // sees every group
/// ```
public enum StoreAccess: Sendable, Hashable {
    /// Apple's rules: new items go to the default group; queries see the entitled groups
    /// and nothing else; naming another group is `missingEntitlement`.
    case entitled(Entitlements)
    /// The Unix user who owns the store file, acting directly (the `secstore` tool): every
    /// group is visible, and an add must name its group.
    case owner

    /// The groups a query without an access group searches; `nil` means all of them.
    var visibleGroups: [String]? {
        switch self {
        case .entitled(let entitlements): entitlements.accessGroups
        case .owner: nil
        }
    }

    func checkEntitled() throws {
        if case .entitled(let entitlements) = self, entitlements.accessGroups.isEmpty {
            throw SecStoreError(.missingEntitlement, "This process has no keychain access groups and no application identifier. Declare them in its entitlements (SECSTORE_ENTITLEMENTS or Entitlements(...)).")
        }
    }

    func checkEntitled(toGroup group: String) throws {
        try checkEntitled()
        if let visible = visibleGroups, !visible.contains(group) {
            throw SecStoreError(.missingEntitlement, "This process is not entitled to the access group \"\(group)\". Add it to `keychain-access-groups` in the entitlements, or leave the group out.")
        }
    }

    func groupForNewItem(explicit: String?) throws -> String {
        if let explicit {
            try checkEntitled(toGroup: explicit)
            return explicit
        }
        switch self {
        case .entitled(let entitlements):
            try checkEntitled()
            return entitlements.defaultAccessGroup!
        case .owner:
            throw SecStoreError.invalid("Owner access has no default access group: name the item's access group.")
        }
    }
}
