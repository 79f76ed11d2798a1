import SecStore

/// Where a credential is used — scheme, host, port, path — and the one mapping of it onto an
/// internet-password item, shared by the git and docker helpers:
///
/// | location | item attribute |
/// | --- | --- |
/// | scheme (`https`) | `ptcl` (`kSecAttrProtocol`), Apple's code (`htps`); see ``SchemeCodes`` |
/// | host | `srvr` (`kSecAttrServer`), ASCII letters lowercased (`ASCIICase`), IPv6 without brackets |
/// | port | `port` (`kSecAttrPort`), only when the client wrote one |
/// | path | `path` (`kSecAttrPath`), only when not empty |
/// | (always) | `atyp` (`kSecAttrAuthenticationType`) `dflt`, as Apple's git and docker helpers store it |
///
/// The username goes in `acct` (`kSecAttrAccount`). Every one of these is part of an internet
/// password's primary key, and all are sealed in the store file like every attribute. An
/// absent port or path is stored as Apple's defaults, 0 and "", and reads back as absent.
///
/// ```swift
/// let location = try InternetLocation(scheme: "https", hostAndPort: "git.example.com:8443", path: "team/app.git")
/// let item = Item(itemClass: .internetPassword, attributes: location.attributes(account: "alice"),
///                 data: Data("s3cr3t".utf8))
/// ```
public struct InternetLocation: Sendable, Hashable {
    /// The URL scheme, ASCII letters lowercased; `nil` only in a query that names none.
    public var scheme: String?
    /// The host and port; `nil` only in a query that names none.
    public var hostAndPort: HostAndPort?
    /// The path, `nil` when there is none.
    public var path: String?

    /// A location from parts already split, as git sends them (`protocol`, `host` with its
    /// port, `path`). Empty strings count as absent.
    ///
    /// ```swift
    /// let location = try InternetLocation(scheme: "https", hostAndPort: "example.com", path: nil)
    /// ```
    ///
    /// - Throws: ``BridgeError`` ``BridgeError/Kind/malformedInput`` when the scheme is not
    ///   a usable URL scheme (``SchemeCodes/code(forScheme:)``) or the host does not parse.
    public init(scheme: String?, hostAndPort: String?, path: String?) throws(BridgeError) {
        let scheme = scheme.flatMap { $0.isEmpty ? nil : ASCIICase.lowercased($0) }
        if let scheme, SchemeCodes.code(forScheme: scheme) == nil {
            throw BridgeError(.malformedInput, "unsupported protocol: a scheme is a letter followed by letters, digits, +, - or . (and not one of Apple's protocol codes)")
        }
        self.scheme = scheme
        self.hostAndPort = try hostAndPort.flatMap { text throws(BridgeError) in text.isEmpty ? nil : try HostAndPort(parsing: text) }
        self.path = path.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A location from checked parts.
    init(scheme: String, hostAndPort: HostAndPort, path: String?) {
        self.scheme = scheme
        self.hostAndPort = hostAndPort
        self.path = path.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The location of a stored internet password; `nil` when the item has no server or protocol.
    ///
    /// ```swift
    /// let location = InternetLocation(item: found.attributes)
    /// print(location?.url ?? "")   // "https://registry.example.com:5000/v2/"
    /// ```
    public init?(item attributes: Attributes) {
        guard let server = attributes.server, let code = attributes.protocol,
              let hostAndPort = try? HostAndPort(host: server, port: Self.storedPort(attributes)) else { return nil }
        self.init(scheme: SchemeCodes.scheme(forCode: code), hostAndPort: hostAndPort, path: Self.storedPath(attributes))
    }

    /// The `kSecAttrProtocol` code of ``scheme``.
    public var protocolCode: InternetProtocol? { scheme.flatMap(SchemeCodes.code(forScheme:)) }

    /// The attributes of an item stored for this location: protocol, server, port, path and
    /// authentication type `dflt`, and `account` when given.
    ///
    /// ```swift
    /// var attributes = location.attributes(account: "alice")
    /// attributes.label = "Docker Credentials"
    /// ```
    public func attributes(account: String?) -> Attributes {
        var attributes = Attributes()
        attributes.protocol = protocolCode
        attributes.server = hostAndPort?.host
        attributes.port = hostAndPort?.port
        attributes.path = path
        attributes.authenticationType = .default
        attributes.account = account
        return attributes
    }

    /// Whether a stored item is for this location.
    ///
    /// `exactly` compares every part, an absent one equal only to an absent one: the
    /// primary key, as docker names one credential by its URL. Otherwise a part this location
    /// leaves out matches anything, as git's own helpers match a request — except the port,
    /// which belongs to the host (`host=example.com` does not match `example.com:8443`).
    ///
    /// ```swift
    /// let wanted = try InternetLocation(scheme: "https", hostAndPort: "example.com", path: nil)
    /// wanted.matches(item.attributes, exactly: false)   // true for example.com/any/path.git
    /// ```
    public func matches(_ attributes: Attributes, exactly: Bool) -> Bool {
        func same<T: Equatable>(_ wanted: T?, _ stored: T?) -> Bool {
            wanted == nil && !exactly ? true : wanted == stored
        }
        guard same(protocolCode, attributes.protocol), same(hostAndPort?.host, attributes.server),
              same(path, Self.storedPath(attributes)) else {
            return false
        }
        return hostAndPort == nil && !exactly ? true : hostAndPort?.port == Self.storedPort(attributes)
    }

    /// A stored item's port: the store fills in 0 (Apple's default) when none was given.
    private static func storedPort(_ attributes: Attributes) -> Int? {
        attributes.port.flatMap { $0 == 0 ? nil : $0 }
    }

    /// A stored item's path: the store fills in "" (Apple's default) when none was given.
    private static func storedPath(_ attributes: Attributes) -> String? {
        attributes.path.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The location as a URL: `scheme://host[:port][/path]`.
    ///
    /// ```swift
    /// try InternetLocation(scheme: "https", hostAndPort: "example.com:8443", path: "v2/").url
    /// // "https://example.com:8443/v2/"
    /// ```
    public var url: String {
        var url = "\(scheme ?? "https")://\(hostAndPort?.authority ?? "")"
        if let path { url += path.hasPrefix("/") ? path : "/" + path }
        return url
    }
}

extension InternetLocation {
    /// A query for every internet password that may be for this location: the parts it names
    /// (and `account`, `label` when given) as equality filters. ``matches(_:exactly:)`` then
    /// decides, since a query cannot ask for an attribute to be absent. The authentication
    /// type is not filtered, so items added by other tools are found too. By default both
    /// synchronizable items and items kept on this device are found (`.any`, not the store's
    /// default `.no`): a credential is one credential whichever kind it is.
    ///
    /// ```swift
    /// let candidates = try store.items(matching: location.query(account: "alice"))
    ///     .filter { location.matches($0.attributes, exactly: true) }
    /// ```
    public func query(account: String? = nil, label: String? = nil, synchronizable: SynchronizableMatch = .any,
                      returning: ReturnOptions = [.attributes, .data, .persistentReference]) -> Query {
        var attributes = Attributes()
        attributes.protocol = protocolCode
        attributes.server = hostAndPort?.host
        attributes.port = hostAndPort?.port
        attributes.path = path
        attributes.account = account
        attributes.label = label
        return Query(itemClass: .internetPassword, attributes: attributes, synchronizable: synchronizable,
                     limit: .all, returning: returning)
    }
}
