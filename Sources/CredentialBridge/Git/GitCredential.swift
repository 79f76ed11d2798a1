/// One credential in git's helper protocol (gitcredentials(7), git-credential(1)): the
/// `key=value` lines git writes to a helper and reads back.
///
/// Reading follows the protocol: one attribute a line, the first `=` splits key from value,
/// the input ends at an empty line or at its end, a key given twice keeps its last value,
/// and keys this helper does not know (`capability[]`, `state[]`, `wwwauth[]`, `url`, …)
/// are ignored, whatever bytes their values hold. An empty value counts as absent.
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
    /// `username`.
    public var username: String?
    /// `password`: the secret.
    public var password: String?
    /// `password_expiry_utc`: when the password stops working, in seconds since 1970 (UTC).
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
    ///   UTF-8, or a `password_expiry_utc` that is not a number of seconds. The error names
    ///   the line by its number, never by its text, which may hold a secret.
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
            try assign(value.isEmpty ? nil : value, to: key, line: lineNumber)
        }
    }

    /// The keys this helper reads; every other key is ignored.
    private enum Key: String, CaseIterable {
        case `protocol`, host, path, username, password
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
            passwordExpiryUTC = seconds
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
