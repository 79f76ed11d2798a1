/// The signals of item changes. Signals are broadcast to every connection on the bus that asks,
/// whatever collections it may use, so only the default collection's items (which every client
/// sees) are announced: a signal naming an item of a granted collection would reveal the group
/// and the item to programs that cannot see them.
extension SecretServiceProvider {
    /// Emits the Collection signal `member` (`ItemCreated`, `ItemChanged`, `ItemDeleted`) and,
    /// for a change, `PropertiesChanged` on the item (its cached properties are stale).
    func notify(_ member: String, item path: String, group: String) {
        guard group == access.defaultGroup else { return }
        emitSignal(ObjectPaths.collection(group), Interfaces.collection.name, member, [.objectPath(path)])
        if member == "ItemChanged" {
            emitSignal(path, Interfaces.properties.name, "PropertiesChanged", [
                .string(Interfaces.item.name), .properties([:]),
                .array(element: "s", ["Label", "Attributes", "Modified"].map(BusValue.string)),
            ])
        }
    }
}
