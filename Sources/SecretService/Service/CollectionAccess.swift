/// Which collections (access groups) a caller may use. Every caller sees the default
/// collection; ``policy`` adds the groups granted to the caller's executable.
struct CollectionAccess {
    /// The access group of the default collection (alias `default`): `default`.
    var defaultGroup = "default"
    /// The extra groups of the caller with this unique bus name; none by default.
    var policy: (String) -> [String] = { _ in [] }

    /// The default group, then the granted ones.
    func visibleGroups(for sender: String) -> [String] {
        var groups = [defaultGroup]
        for group in policy(sender) where !groups.contains(group) { groups.append(group) }
        return groups
    }
}
