/// The signals of collection and item changes. A broadcast signal reaches every connection on
/// the bus that asks, whatever collections it may use, so only the default collection's signals
/// (every client sees it) are broadcast; a granted collection's are unicast to each client that
/// ``CollectionAccess/audience(of:)`` names, as a signal naming its group or items would reveal
/// them to programs that cannot see them. `CollectionDeleted` is never sent: collections are
/// access groups, which are not deleted over the bus.
extension SecretServiceProvider {
    /// Emits the Collection signal `member` (`ItemCreated`, `ItemChanged`, `ItemDeleted`) and,
    /// for a change, `PropertiesChanged` on the item (its cached properties are stale).
    func notify(_ member: String, item path: String, group: String) {
        // Worked out once per change: for a granted group it reads every known client's policy.
        let audience = access.audience(of: group)
        announce(to: audience, ObjectPaths.collection(group), Interfaces.collection.name, member, [.objectPath(path)])
        if member == "ItemChanged" {
            announce(to: audience, path, Interfaces.properties.name, "PropertiesChanged", [
                .string(Interfaces.item.name), .properties([:]),
                .array(element: "s", ["Label", "Attributes", "Modified"].map(BusValue.string)),
            ])
        }
    }

    /// Emits the Service signal `member` (`CollectionCreated`, `CollectionChanged`) for `group`'s
    /// collection and, for a change (its label), `PropertiesChanged` on the collection.
    ///
    ///     notifyCollection("CollectionChanged", group: "default")
    func notifyCollection(_ member: String, group: String) {
        let path = ObjectPaths.collection(group)
        let audience = access.audience(of: group)
        announce(to: audience, ObjectPaths.service, Interfaces.service.name, member, [.objectPath(path)])
        if member == "CollectionChanged" {
            announce(to: audience, path, Interfaces.properties.name, "PropertiesChanged", [
                .string(Interfaces.collection.name), .properties([:]), .array(element: "s", [.string("Label")]),
            ])
        }
    }

    /// Sends one signal to a group's audience: broadcast, or unicast to each client granted it.
    private func announce(to audience: CollectionAccess.Audience, _ path: String, _ interface: String, _ member: String,
                          _ values: [BusValue]) {
        switch audience {
        case .everyone:
            emitSignal(path, interface, member, values, nil)
        case .only(let clients):
            for client in clients { emitSignal(path, interface, member, values, client) }
        }
    }
}
