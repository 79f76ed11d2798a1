import SecStore

/// One credential in git's helper protocol (gitcredentials(7), git-credential(1)): the
/// `key=value` lines git writes to a helper and reads back.
///
/// Reading follows the protocol: one attribute a line, the first `=` splits key from value,
/// the input ends at an empty line or at its end, a key given twice keeps its last value,
/// and keys this helper does not know (`capability[]`, `state[]`, `wwwauth[]`, …) are
/// ignored, whatever bytes their values hold. `url` is read as git's own reader reads it: it
/// replaces everything before it with the URL's parts. An empty value counts as absent,
/// except for `username`: `username=` is the empty username, as git and its own helpers take
/// it (a token used with no username, `https://:TOKEN@host`), never "any username".
///
/// ```swift
/// let request = try GitCredential(parsing: Array("protocol=https\nhost=example.com\n\n".utf8))
/// request.host   // "example.com"
/// ```
public struct GitCredential: Sendable, Equatable, CustomStringConvertible {
    /// `protocol`: the URL scheme (`https`).
    public var `protocol`: String?
    /// `host`: the host name, with `:port` when the URL has one.
    public var host: String?
    /// `path`: the repository path, sent when `credential.useHttpPath` is set (or for `cert`).
    public var path: String?
    /// `username`; `""` for the empty username, which is a username (`nil` is none given).
    public var username: String?
    /// `password`: the secret.
    public var password: String?
    /// `password_expiry_utc`: when the password stops working, in seconds since 1970 (UTC);
    /// `nil` for none (a request's `0`, as git reads it).
    public var passwordExpiryUTC: Int64?
    /// `oauth_refresh_token`: an OAuth refresh token to obtain the next password.
    public var oauthRefreshToken: String?

    /// A credential with these attributes.
    ///
    /// ```swift
    /// let answer = GitCredential(username: "alice", password: "s3cr3t")
    /// ```
    public init(protocol: String? = nil, host: String? = nil, path: String? = nil, username: String? = nil,
                password: String? = nil, passwordExpiryUTC: Int64? = nil, oauthRefreshToken: String? = nil) {
        self.protocol = `protocol`
        self.host = host
        self.path = path
        self.username = username
        self.password = password
        self.passwordExpiryUTC = passwordExpiryUTC
        self.oauthRefreshToken = oauthRefreshToken
    }

    /// Reads the lines a git client wrote.
    ///
    /// ```swift
    /// let credential = try GitCredential(parsing: input)
    /// ```
    ///
    /// Only the values of the keys this helper reads must be UTF-8: the value of any other
    /// key is skipped unread, as the protocol asks (`wwwauth[]` carries the server's
    /// `WWW-Authenticate` header, which a server may write in Latin-1).
    ///
    /// - Throws: ``BridgeError`` ``BridgeError/Kind/malformedInput`` for a line without `=`
    ///   or with an empty key, a NUL byte, a value of a key this helper reads that is not
    ///   UTF-8, a `password_expiry_utc` that is not a number of seconds, or a `url` git
    ///   itself refuses (no scheme, a part that decodes to a newline). The error names the
    ///   line by its number, never by its text, which may hold a secret.
    public init(parsing input: [UInt8]) throws(BridgeError) {
        self.init()
        var lineNumber = 0
        for var line in input.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.last == 0x0D { line = line.dropLast() }
            if line.isEmpty { break }
            guard !line.contains(0) else { throw BridgeError(.malformedInput, "line \(lineNumber) contains a NUL byte") }
            guard let separator = line.firstIndex(of: 0x3D), separator > line.startIndex else {
                throw BridgeError(.malformedInput, "line \(lineNumber) is not key=value")
            }
            // Unknown keys are for other helpers or later versions of git.
            guard let key = Key(line[..<separator]) else { continue }
            guard let value = String(validating: line[(separator + 1)...], as: UTF8.self) else {
                throw BridgeError(.malformedInput, "line \(lineNumber) is not UTF-8 text")
            }
            if key == .url {
                self = try GitCredential(url: value, line: lineNumber)
            } else {
                try assign(value.isEmpty && key != .username ? nil : value, to: key, line: lineNumber)
            }
        }
    }

    /// The keys this helper reads; every other key is ignored.
    private enum Key: String, CaseIterable {
        case `protocol`, host, path, username, password, url
        case passwordExpiryUTC = "password_expiry_utc"
        case oauthRefreshToken = "oauth_refresh_token"

        /// The key spelt by `bytes`, compared byte for byte; `nil` for any other key.
        init?(_ bytes: ArraySlice<UInt8>) {
            guard let key = Self.allCases.first(where: { bytes.elementsEqual($0.rawValue.utf8) }) else { return nil }
            self = key
        }
    }

    private mutating func assign(_ value: String?, to key: Key, line: Int) throws(BridgeError) {
        switch key {
        case .protocol: self.protocol = value
        case .host: host = value
        case .path: path = value
        case .username: username = value
        case .password: password = value
        case .oauthRefreshToken: oauthRefreshToken = value
        case .passwordExpiryUTC:
            guard let value else { passwordExpiryUTC = nil; return }
            guard let seconds = GitSecret.seconds(value) else {
                throw BridgeError(.malformedInput, "line \(line): password_expiry_utc is not a number of seconds")
            }
            // 0 is no expiry, as git's own reader takes it (credential.c: 0 becomes "never").
            passwordExpiryUTC = seconds == 0 ? nil : seconds
        case .url: break   // Read by init(url:line:).
        }
    }

    /// A `url=` line read as git's own reader (credential.c, behind git-credential-store and
    /// git-credential-cache) reads it: what was read before it is dropped, and the URL's
    /// parts become the credential — `protocol` up to `://`, `username` and `password` from
    /// `user[:password]@`, `host` (with its port) up to the first `/`, `?` or `#`, `path`
    /// after it without its leading and trailing slashes — each percent-decoded but the
    /// protocol. A URL without a scheme is refused, as git refuses it, and so is a part that
    /// decodes to a newline, a NUL byte, or bytes that are not UTF-8.
    ///
    /// Ignored instead, the line would widen a request: an `erase` of `url=https://example.com`
    /// and `username=alice` would erase alice's credentials for every host.
    private init(url: String, line: Int) throws(BridgeError) {
        self.init()
        // Split at bytes, as git splits: a delimiter followed by a combining mark is still the
        // delimiter (as `Character`s, "/" and U+0301 are one, and not "/").
        let url = url.utf8
        guard let schemeEnd = url.firstRange(of: "://".utf8), schemeEnd.lowerBound > url.startIndex else {
            throw BridgeError(.malformedInput, "line \(line): url has no scheme")
        }
        let rest = url[schemeEnd.upperBound...]
        let hostEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        var hostStart = rest.startIndex
        if let at = rest.firstIndex(of: UInt8(ascii: "@")), at < hostEnd {
            let userInfo = rest[..<at]
            if let colon = userInfo.firstIndex(of: UInt8(ascii: ":")) {
                username = try Self.decoded(userInfo[..<colon], line: line)
                password = try Self.decoded(userInfo[userInfo.index(after: colon)...], line: line)
            } else {
                username = try Self.decoded(userInfo, line: line)
            }
            hostStart = rest.index(after: at)
        }
        // ASCII bytes end it: the bytes before are whole UTF-8 text.
        self.protocol = String(decoding: url[..<schemeEnd.lowerBound], as: UTF8.self)
        host = try Self.decoded(rest[hostStart..<hostEnd], line: line)
        // Leading slashes go; trailing ones too once decoded (`%2F` is one), and the path then
        // still has a character.
        let pathText = rest[hostEnd...].drop { $0 == UInt8(ascii: "/") }
        if !pathText.isEmpty {
            path = try Self.decoded(pathText, trimmingTrailingSlashes: true, line: line)
        }
        // An empty part counts as absent, as on a line of its own, but the username.
        if host?.isEmpty == true { host = nil }
        if password?.isEmpty == true { password = nil }
    }

    /// `text` with its `%XX` escapes decoded, as git decodes a URL's parts: a `%` without two
    /// hex digits after it stays as it is, and so does `+`. With `trimmingTrailingSlashes`,
    /// the decoded text loses its trailing slashes but its first byte (git's rule for a path).
    private static func decoded(_ text: Substring.UTF8View, trimmingTrailingSlashes: Bool = false,
                                line: Int) throws(BridgeError) -> String {
        var bytes = Array(text), decoded: [UInt8] = []
        // A URL's user information may hold the password: the copies are wiped.
        defer {
            Wipe.bytes(&bytes)
            Wipe.bytes(&decoded)
        }
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x25, index + 2 < bytes.count,
               let high = hexDigit(bytes[index + 1]), let low = hexDigit(bytes[index + 2]) {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        if trimmingTrailingSlashes {
            while decoded.count > 1, decoded.last == 0x2F { decoded.removeLast() }
        }
        guard !decoded.contains(0x0A), !decoded.contains(0) else {
            throw BridgeError(.malformedInput, "line \(line): url has a newline or a NUL byte in one of its parts")
        }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw BridgeError(.malformedInput, "line \(line): url has a part that is not UTF-8 text")
        }
        return text
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    /// The answer lines of a `get`: `username`, `password`, `password_expiry_utc`,
    /// `oauth_refresh_token`, each when set, every one ending in a newline.
    ///
    /// ```swift
    /// GitCredential(username: "alice", password: "s3cr3t").answer   // "username=alice\npassword=s3cr3t\n"
    /// ```
    public var answer: String {
        var lines = ""
        if let username { lines += "username=\(username)\n" }
        if let password { lines += "password=\(password)\n" }
        if let passwordExpiryUTC { lines += "password_expiry_utc=\(passwordExpiryUTC)\n" }
        if let oauthRefreshToken { lines += "oauth_refresh_token=\(oauthRefreshToken)\n" }
        return lines
    }

    /// Whether `text` can be a value in the protocol: no newline, no NUL.
    static func isWritable(_ text: String) -> Bool {
        !text.utf8.contains(0x0A) && !text.utf8.contains(0)
    }

    /// Shows the location and the username; the password and the refresh token only as set or not.
    public var description: String {
        "GitCredential(protocol: \(self.protocol ?? "-"), host: \(host ?? "-"), path: \(path ?? "-"), username: \(username ?? "-"), password: \(password == nil ? "-" : "<redacted>"), expiry: \(passwordExpiryUTC.map(String.init) ?? "-"), refresh token: \(oauthRefreshToken == nil ? "-" : "<redacted>"))"
    }
}
