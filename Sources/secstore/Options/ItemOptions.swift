import ArgumentParser
import SecStore

/// How every command names items: `--class`, `--service`, `--account`, `--group`,
/// `--label`, and for internet passwords `--server`, `--port`, `--protocol`, `--path`,
/// `--security-domain`, `--authentication-type`; or one item by `--ref`.
///
/// ```
/// secstore get --service api.example.com --account alice
/// secstore get --class inet --server example.com --protocol https --account alice
/// ```
struct ItemOptions: ParsableArguments {
    @Option(name: .customLong("class"), help: ArgumentHelp(
        "The item class: genp (generic password) or inet (internet password). Without it: inet when an internet-password option is given, genp when --service is, else the command's default (genp; list and delete --all: both).", valueName: "class"))
    var itemClass: ItemClass?

    @Option(name: [.customShort("s"), .customLong("service")], help: ArgumentHelp("The service (generic passwords).", valueName: "service"))
    var service: String?

    @Option(name: [.customShort("a"), .customLong("account")], help: ArgumentHelp("The account.", valueName: "account"))
    var account: String?

    @Option(name: [.customShort("g"), .customLong("group")], help: ArgumentHelp("The access group.", valueName: "group"))
    var group: String?

    @Option(help: ArgumentHelp("The label: a user-visible name.", valueName: "label"))
    var label: String?

    @Option(help: ArgumentHelp("The server (internet passwords).", valueName: "host"))
    var server: String?

    @Option(help: ArgumentHelp("The port (internet passwords).", valueName: "port"))
    var port: Int?

    @Option(name: .customLong("protocol"), help: ArgumentHelp(
        "The protocol (internet passwords): a name such as https or ssh, or a four-character code such as htps.",
        valueName: "protocol"))
    var internetProtocol: ProtocolArgument?

    @Option(help: ArgumentHelp("The path (internet passwords).", valueName: "path"))
    var path: String?

    @Option(name: .customLong("security-domain"), help: ArgumentHelp(
        "The security domain (internet passwords).", valueName: "domain"))
    var securityDomain: String?

    @Option(name: .customLong("authentication-type"), help: ArgumentHelp(
        "The authentication type (internet passwords), a four-character code such as dflt or form.", valueName: "code"))
    var authenticationType: String?

    @Option(name: .customLong("attribute"), help: ArgumentHelp(
        "A free-form attribute NAME=VALUE (repeatable): a new item's, or a filter matched exactly (the Secret Service's lookup attributes).",
        valueName: "name=value"))
    var customAttributeArguments: [String] = []

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "Synchronizable (kSecAttrSynchronizable): a new item that syncs to the circle's devices (`secstore sync`), or a filter; without it, a search matches both."))
    var synchronizable: Bool?

    @Option(name: .customLong("ref"), help: ArgumentHelp(
        "One item by persistent reference (40 hex digits, as `list --json` and `verify` print it).", valueName: "hex"))
    var reference: String?

    private var internetOnlyOptions: [String] {
        [(server, "--server"), (port.map(String.init), "--port"), (internetProtocol?.value.rawValue, "--protocol"),
         (path, "--path"), (securityDomain, "--security-domain"), (authenticationType, "--authentication-type")]
            .compactMap { $0.0 == nil ? nil : $0.1 }
    }

    private var hasFilters: Bool {
        service != nil || account != nil || group != nil || label != nil || !internetOnlyOptions.isEmpty
            || !customAttributeArguments.isEmpty || synchronizable != nil
    }

    /// `--attribute` values as pairs: each `NAME=VALUE` split at its first `=`; `nil` when one
    /// has no `=` or an empty name, or a name is given twice.
    private var customAttributes: [String: String]? {
        var pairs: [String: String] = [:]
        for argument in customAttributeArguments {
            guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex,
                  pairs.updateValue(String(argument[argument.index(after: equals)...]), forKey: String(argument[..<equals])) == nil
            else { return nil }
        }
        return pairs
    }

    func validate() throws {
        let internet = internetOnlyOptions
        if itemClass == .genericPassword, let first = internet.first {
            throw ValidationError("\(first) applies to internet passwords. Use --class inet, or leave \(first) out.")
        }
        if service != nil, itemClass == .internetPassword || !internet.isEmpty {
            throw ValidationError("--service applies to generic passwords. Internet passwords are named by --server (and --protocol, --port, --path).")
        }
        if customAttributes == nil {
            throw ValidationError("--attribute takes NAME=VALUE with a name that is not empty, each name once, as in --attribute xdg:schema=org.example.Mail.")
        }
        if let port, !Self.ports.contains(Int64(port)) {
            throw ValidationError("--port must be between 0 and 65535.")
        }
        if let reference {
            guard let parsed = PersistentReference(hexString: reference) else {
                throw ValidationError("--ref takes a persistent reference: 40 hex digits, as `secstore list --json` prints in \"ref\".")
            }
            if hasFilters {
                throw ValidationError("--ref names exactly one item; leave out the other item options.")
            }
            if let itemClass, itemClass != parsed.itemClass {
                throw ValidationError("--ref names a \(parsed.itemClass) item but --class is \(itemClass).")
            }
        }
    }

    /// The class the options name: `--class`, else `inet` when an internet-password option
    /// is given, `genp` when `--service` is, else `defaultClass` (`genp` for every command
    /// but `list`, which searches both).
    func resolvedClass(default defaultClass: ItemClass? = .genericPassword) -> ItemClass? {
        if let persistentReference { return persistentReference.itemClass }
        if let itemClass { return itemClass }
        if !internetOnlyOptions.isEmpty { return .internetPassword }
        return service != nil ? .genericPassword : defaultClass
    }

    var persistentReference: PersistentReference? {
        reference.flatMap(PersistentReference.init(hexString:))
    }

    /// The options as attributes: equality filters for a query, or the name of a new item.
    var attributes: Attributes {
        var attributes = Attributes()
        attributes.service = service
        attributes.account = account
        attributes.accessGroup = group
        attributes.label = label
        attributes.server = server
        attributes.port = port
        attributes.protocol = internetProtocol?.value
        attributes.path = path
        attributes.securityDomain = securityDomain
        attributes.authenticationType = authenticationType.map(AuthenticationType.init(rawValue:))
        attributes.custom = customAttributes ?? [:]
        return attributes
    }

    /// A query for every item of `itemClass` the options match (synchronizable or not:
    /// the owner sees everything).
    func query(for itemClass: ItemClass, returning: ReturnOptions) -> Query {
        if let persistentReference {
            return Query(itemClass: persistentReference.itemClass, synchronizable: .any, limit: .all,
                         persistentReference: persistentReference, returning: returning)
        }
        return Query(itemClass: itemClass, attributes: attributes, synchronizable: synchronizableMatch, limit: .all,
                     returning: returning)
    }

    /// The attributes of a new item (`add`, `generate`): the options, its group (the default
    /// group unless `--group`), the details, and `synchronizable` when asked for.
    func newItemAttributes(_ details: ItemDetailOptions) throws -> Attributes {
        var attributes = self.attributes
        attributes.accessGroup = try DefaultGroup.forNewItem(explicit: group)
        details.apply(to: &attributes)
        if synchronizable == true {
            try SyncJournal.checkCanSync(attributes)
            attributes.isSynchronizable = true
        }
        return attributes
    }

    /// `--synchronizable` / `--no-synchronizable` as a filter; both kinds without either.
    var synchronizableMatch: SynchronizableMatch {
        synchronizable.map { $0 ? .yes : .no } ?? .any
    }

    /// The ports the tool names items by (`--port`), and so the ports an import may give an
    /// item: one outside them could be reached only by `--ref`.
    static let ports: ClosedRange<Int64> = 0...65535

    /// A short human description of what the options name, for messages.
    var summary: String {
        if let reference { return "ref \(reference)" }
        let parts = [("service", service), ("account", account), ("group", group), ("label", label), ("server", server),
                     ("port", port.map(String.init)), ("protocol", internetProtocol?.value.rawValue), ("path", path)]
            .compactMap { name, value in value.map { "\(name) \"\($0)\"" } }
            + customAttributeArguments.map { "attribute \"\($0)\"" }
            + (synchronizable.map { [$0 ? "synchronizable" : "not synchronizable"] } ?? [])
        return parts.isEmpty ? "any item" : parts.joined(separator: ", ")
    }
}

/// `--glob` (`list`, `delete`): the `--service` and `--account` values that are patterns
/// (``GlobPattern``), matched on the decrypted attributes of the items the rest of the query
/// finds.
struct GlobFilter: Sendable {
    var service: GlobPattern?
    var account: GlobPattern?

    var isEmpty: Bool { service == nil && account == nil }

    func matches(_ item: Item) -> Bool {
        if let service, !service.matches(item.attributes.service ?? "") { return false }
        if let account, !account.matches(item.attributes.account ?? "") { return false }
        return true
    }
}

extension ItemOptions {
    /// The query and the pattern filter for `--glob`. A `--service` or `--account` value that
    /// is a pattern leaves the query (it is matched after, by ``GlobFilter``); one that is not
    /// stays an exact, indexed filter, with its escapes (`\*`) removed. Without patterns this
    /// is the ordinary query, on the fast path.
    func globQuery(for itemClass: ItemClass, returning: ReturnOptions) -> (query: Query, filter: GlobFilter) {
        var query = query(for: itemClass, returning: returning)
        var filter = GlobFilter()
        guard persistentReference == nil else { return (query, filter) }
        if let service {
            let pattern = GlobPattern(service)
            if let literal = pattern.literal { query.attributes.service = literal } else {
                query.attributes[.service] = nil
                filter.service = pattern
            }
        }
        if let account {
            let pattern = GlobPattern(account)
            if let literal = pattern.literal { query.attributes.account = literal } else {
                query.attributes[.account] = nil
                filter.account = pattern
            }
        }
        // The patterns are matched on attributes, so they must come back.
        if !filter.isEmpty { query.returning.insert(.attributes) }
        return (query, filter)
    }
}
