/// A host as the credential protocols write it: `example.com`, `example.com:8443`,
/// `[::1]:8443`. The host is kept with ASCII letters lowercased (host names compare without
/// regard to ASCII case; every other byte compares as written, see `ASCIICase`) and
/// without the brackets of an IPv6 address.
///
/// ```swift
/// let parsed = try HostAndPort(parsing: "Git.Example.com:8443")
/// parsed.host   // "git.example.com"; "\u{212A}ey.com" stays itself, never "key.com"
/// parsed.port   // 8443
/// ```
public struct HostAndPort: Sendable, Hashable {
    /// The host name or address, ASCII letters lowercased, IPv6 without brackets.
    public var host: String
    /// The port, when one was written.
    public var port: Int?

    /// The longest host accepted: longer than any DNS name.
    static let maximumHostLength = 1024

    /// A host and optional port, checked as ``init(parsing:)`` checks them.
    ///
    /// ```swift
    /// let location = try HostAndPort(host: "registry.example.com", port: 5000)
    /// ```
    public init(host: String, port: Int?) throws(BridgeError) {
        guard !host.isEmpty, host.utf8.count <= Self.maximumHostLength else {
            throw BridgeError(.malformedInput, host.isEmpty ? "no hostname" : "the host name is too long")
        }
        guard host.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !"/@[]".unicodeScalars.contains($0) }) else {
            throw BridgeError(.malformedInput, "invalid character in host name")
        }
        if let port, !(1...65535).contains(port) {
            throw BridgeError(.malformedInput, "invalid port: not a number from 1 to 65535")
        }
        self.host = ASCIICase.lowercased(host)
        self.port = port
    }

    /// Parses `host`, `host:port`, `[v6]` or `[v6]:port`.
    ///
    /// ```swift
    /// try HostAndPort(parsing: "[::1]:8080")   // host "::1", port 8080
    /// ```
    ///
    /// - Throws: ``BridgeError`` ``BridgeError/Kind/malformedInput`` for an empty host, a
    ///   port that is not a number from 1 to 65535, or a character no host name has.
    ///
    /// Read by Unicode scalar, never by Character: a combining mark after `[`, `]` or `:`
    /// makes one Character of the two and hides the delimiter (``authority`` of the host
    /// `\u{323}:` is `[\u{323}:]`, which read by Character has no `[`).
    public init(parsing text: String) throws(BridgeError) {
        var host = Substring(text).unicodeScalars
        var portText: Substring.UnicodeScalarView?
        if host.first == "[" {
            guard let close = host.firstIndex(of: "]") else { throw BridgeError(.malformedInput, "unclosed [ in host") }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.first == ":" else { throw BridgeError(.malformedInput, "text after ] in host") }
                portText = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        try self.init(host: String(host), port: try portText.map { text throws(BridgeError) in try Self.port(Substring(text)) })
    }

    /// The host as a URL authority writes it: brackets around an IPv6 address, `:port` when set.
    ///
    /// ```swift
    /// try HostAndPort(host: "::1", port: 8080).authority   // "[::1]:8080"
    /// ```
    public var authority: String {
        let host = self.host.unicodeScalars.contains(":") ? "[\(self.host)]" : self.host
        return port.map { "\(host):\($0)" } ?? host
    }

    private static func port(_ text: Substring) throws(BridgeError) -> Int {
        guard !text.isEmpty, text.count <= 5, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let port = Int(text) else {
            throw BridgeError(.malformedInput, "invalid port: not a number from 1 to 65535")
        }
        return port
    }
}
