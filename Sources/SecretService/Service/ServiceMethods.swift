import Foundation

/// `org.freedesktop.Secret.Service`.
extension SecretServiceProvider {
    static let collectionLabelProperty = "org.freedesktop.Secret.Collection.Label"

    func serviceMethod(_ name: String, _ context: Context) throws(BusError) -> [BusValue] {
        let arguments = context.arguments
        switch name {
        case "OpenSession":
            let path = try sessions.open(algorithm: arguments[0].text ?? "", for: context.call.sender)
            return [.variant(.string("")), .objectPath(path)]
        case "CreateCollection":
            // Collections are access groups, granted by policy rather than created by clients.
            // Asking for the default alias, or for no label or the default group's name, gets
            // the default collection, unchanged and unannounced (it always exists); asking for a
            // collection labelled as a group the caller is granted gets that group's collection
            // (it exists already). Anything else cannot be created.
            let label = try arguments[0].variantDictionary("Properties")[Self.collectionLabelProperty]?.text ?? ""
            if arguments[1].text == ObjectPaths.defaultAlias
                || (arguments[1].text == "" && (label.isEmpty || VisibleGroups.same(label, access.defaultGroup))) {
                return [.objectPath(ObjectPaths.collection(access.defaultGroup)), .objectPath(ObjectPaths.none)]
            }
            guard arguments[1].text == "", context.groups.contains(label) else {
                throw .notSupported("Collections are access groups granted by the provider's policy (docs/secret-service.md); this caller is granted no group of that name.")
            }
            // The first CreateCollection of a group labels it (with its own name, the label it
            // showed already) and announces it; later ones find it labelled and stay quiet. A
            // store that cannot take the label now (locked) still answers with the collection.
            if !backend.hasCollectionLabel(group: label), (try? backend.setCollectionLabel(label, group: label)) != nil {
                notifyCollection("CollectionCreated", group: label)
            }
            return [.objectPath(ObjectPaths.collection(label)), .objectPath(ObjectPaths.none)]
        case "SearchItems":
            return [.objectPaths(try search(try arguments[0].stringDictionary("Attributes"), in: context.groups.names)), .objectPaths([])]
        case "Unlock":
            // Never a prompt: what is unlocked now is returned, the rest stays locked until
            // `secstore unlock` or the passphrase file, and the prompt is "/".
            let objects = try visibleObjects(arguments[0].paths ?? [], context)
            return [.objectPaths(backend.isLocked ? [] : objects), .objectPath(ObjectPaths.none)]
        case "Lock":
            // Locks the provider's handle; a store without a passphrase, or a shared unlock
            // (`secstore unlock --for`) still in force, leaves the objects readable, so they are
            // not reported as locked.
            let objects = try visibleObjects(arguments[0].paths ?? [], context)
            backend.store.lock()
            return [.objectPaths(backend.isLocked ? objects : []), .objectPath(ObjectPaths.none)]
        case "GetSecrets":
            guard case .objectPath(let session) = arguments[1] else { throw .invalidArgs("The session is an object path.") }
            try sessions.check(session, for: context.call.sender)
            return [try secrets(of: arguments[0].paths ?? [], session: session, context)]
        case "ReadAlias":
            return [.objectPath(arguments[0].text == ObjectPaths.defaultAlias ? ObjectPaths.collection(access.defaultGroup) : ObjectPaths.none)]
        case "SetAlias":
            // The default alias always names the default collection.
            guard arguments[0].text == ObjectPaths.defaultAlias,
                  case .collection(let group)? = ObjectPaths.parse(arguments[1].text ?? "", defaultGroup: access.defaultGroup),
                  VisibleGroups.same(group, access.defaultGroup) else {
                throw .notSupported("Only the alias default exists, and it names the default collection.")
            }
            return []
        default:
            throw .unknownMethod("No method \(name).")
        }
    }

    /// The paths of the items with every pair of `attributes`, in every collection the caller
    /// sees. A locked store has no readable attributes, so nothing matches until it is unlocked.
    func search(_ attributes: [String: String], in groups: [String]) throws(BusError) -> [String] {
        guard !backend.isLocked else { return [] }
        var paths: [String] = []
        for group in groups {
            paths += try backend.search(group: group, attributes: attributes).map { ObjectPaths.item(group: group, id: $0.id) }
        }
        return paths
    }

    /// The objects of `paths` that exist for this caller (others are left out).
    private func visibleObjects(_ paths: [String], _ context: Context) throws(BusError) -> [String] {
        paths.filter { path in
            switch ObjectPaths.parse(path, defaultGroup: access.defaultGroup) {
            case .collection(let group)?, .item(let group, _)?: context.groups.contains(group)
            case .service?: true
            default: false
            }
        }
    }
}
