/// The provider's object paths (Secret Service API 0.2, "Object Paths"):
/// - `/org/freedesktop/secrets`: the service,
/// - `/org/freedesktop/secrets/collection/<group>`: a collection, its access group escaped as
///   sd-bus escapes path elements (the group `default` is `…/collection/default`),
/// - `…/collection/<group>/<id>`: an item, its id being the store item's account,
/// - `/org/freedesktop/secrets/aliases/default`: the default collection under its alias,
/// - `/org/freedesktop/secrets/session/<n>`: a session.
enum ObjectPaths {
    static let service = "/org/freedesktop/secrets"
    static let collections = service + "/collection"
    static let aliases = service + "/aliases"
    static let sessions = service + "/session"
    /// The one alias there is (`ReadAlias`, `SetAlias`, `CreateCollection`'s alias, the node
    /// below ``aliases``); it always names the default collection.
    static let defaultAlias = "default"
    /// "No object" in replies: no prompt, no alias.
    static let none = "/"

    /// What a path names.
    enum Object: Equatable {
        case service
        case collection(group: String)
        case item(group: String, id: String)
        case session(String)
    }

    static func collection(_ group: String) -> String {
        BusPath.encode(group, under: collections) ?? collections + "/_"
    }

    static func item(group: String, id: String) -> String { collection(group) + "/" + id }

    /// The object `path` names, or `nil` for a path the provider does not serve. The alias
    /// path names the default collection. A group has one path, the one ``collection(_:)``
    /// makes: another escaping of the same name (`…/collection/_64efault`, which sd-bus would
    /// decode to `default`) names nothing, so that every object has one path, the one replies
    /// and signals use.
    static func parse(_ path: String, defaultGroup: String) -> Object? {
        if path == service { return .service }
        if path == aliases + "/" + defaultAlias { return .collection(group: defaultGroup) }
        if path.hasPrefix(sessions + "/") { return .session(path) }
        guard path.hasPrefix(collections + "/") else { return nil }
        let elements = path.dropFirst(collections.count + 1).split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(elements.count), let group = BusPath.decode(collections + "/" + elements[0], under: collections),
              collection(group) == collections + "/" + elements[0] else { return nil }
        if elements.count == 1 { return .collection(group: group) }
        return .item(group: group, id: String(elements[1]))
    }
}
