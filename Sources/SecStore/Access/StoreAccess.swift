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
}
