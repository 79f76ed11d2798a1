/// Which collections (access groups) a caller may use. Every caller sees the default
/// collection; ``policy`` adds the groups granted to the caller's executable. The one home of
/// that rule, for calls (``visibleGroups(for:)``) and for signals (``audience(of:)``).
struct CollectionAccess {
    /// The access group of the default collection (alias `default`): `default`.
    var defaultGroup = "default"
    /// The extra groups of the caller with this unique bus name; none by default.
    var policy: (String) -> [String] = { _ in [] }
    /// The unique names of the connected clients the provider has seen (called it); none by default.
    var clients: () -> [String] = { [] }

    /// Who may receive a signal about a collection or its items.
    enum Audience: Equatable {
        /// Every connection on the bus: a broadcast signal.
        case everyone
        /// Only these unique names: one unicast signal each.
        case only([String])
    }

    /// The default group, then the granted ones (each once, by bytes: ``VisibleGroups``).
    func visibleGroups(for sender: String) -> VisibleGroups {
        VisibleGroups([defaultGroup] + policy(sender))
    }

    /// Everyone for the default collection (every client sees it); for a granted one, the seen
    /// clients whose executable's policy grants it now, so that no signal names a group to a
    /// program that cannot see it. A client that never called the provider gets none.
    ///
    ///     access.audience(of: "TEAM.shared")   // .only([":1.42"])
    func audience(of group: String) -> Audience {
        guard !VisibleGroups.same(group, defaultGroup) else { return .everyone }
        return .only(clients().filter { visibleGroups(for: $0).contains(group) }.sorted())
    }
}
