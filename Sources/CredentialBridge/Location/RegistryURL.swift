/// A registry server URL as docker names it (`https://index.docker.io/v1/`,
/// `registry.example.com:5000`, `http://localhost:5000`), read the way
/// docker-credential-helpers reads it: a URL without a scheme is `https`; only `http` and
/// `https` are accepted; an ASCII control character anywhere is refused, as Go's `url.Parse`
/// refuses it; the query and fragment are dropped; the path is kept.
///
/// ```swift
/// let location = try RegistryURL.location(of: "registry.example.com:5000/v2/")
/// location.url   // "https://registry.example.com:5000/v2/"
/// ```
public enum RegistryURL {
    /// The location of a registry URL. Its path is kept without the leading `/`, as git
    /// sends paths, so both helpers store paths one way.
    ///
    /// ```swift
    /// try RegistryURL.location(of: "ftp://example.com")   // throws "unsupported scheme: ftp"
    /// ```
    ///
    /// - Throws: ``BridgeError`` ``BridgeError/Kind/malformedInput`` with
    ///   docker-credential-helpers' messages `unsupported scheme: <scheme>` (the scheme as Go
    ///   reads it: the text before `://` up to its first colon, when that is a scheme; never
    ///   what follows, which may be a password) and `no hostname in URL`, Go's
    ///   `net/url: invalid control character in URL` (without the URL Go quotes), or a
    ///   message naming what else is wrong.
    public static func location(of serverURL: String) throws(BridgeError) -> InternetLocation {
        // A URL with a line break stored from JSON could never be named again: docker writes
        // it back to `get` and `erase` on one line, read with its line ends removed.
        guard !serverURL.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw BridgeError(.malformedInput, "net/url: invalid control character in URL")
        }
        // Read by Unicode scalar, as Go reads bytes, never by Character: a combining mark after
        // a "/", ":" or "@" makes one Character of the two and hides the delimiter (the URL
        // `list` prints for a host that begins with one read back as the host "https").
        var rest = Substring(serverURL).unicodeScalars
        var scheme = "https"
        if let separator = rest.firstRange(of: "://".unicodeScalars) {
            let written = ASCIICase.lowercased(Substring(rest[..<separator.lowerBound]))
            guard written == "http" || written == "https" else {
                // The scheme as Go's url.Parse reads it, up to the first colon, and only when it
                // is one: what comes after may be user information (`alice:s3cr3t@https://…`).
                let scheme = String(written.unicodeScalars.prefix { $0 != ":" })
                throw BridgeError(.malformedInput, SchemeCodes.isWellFormed(scheme) ? "unsupported scheme: \(scheme)" : "invalid server URL: missing protocol scheme")
            }
            scheme = written
            rest = rest[separator.upperBound...]
        } else if rest.starts(with: "//".unicodeScalars) {
            rest = rest.dropFirst(2)
        }
        // Drop the fragment, then the query; the authority ends at the first "/".
        rest = rest.prefix { $0 != "#" }.prefix { $0 != "?" }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        let path = String(rest[authorityEnd...].drop { $0 == "/" })
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.isEmpty || authority.first == ":" || authority.elementsEqual("[]".unicodeScalars) {
            throw BridgeError(.malformedInput, "no hostname in URL")
        }
        // "host:" has an empty port, which URL parsers read as no port.
        if authority.last == ":" { authority = authority.dropLast() }
        let hostAndPort = try HostAndPort(parsing: String(authority))
        return InternetLocation(scheme: scheme, hostAndPort: hostAndPort, path: path)
    }
}
