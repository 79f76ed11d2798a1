import Foundation
import SecStore

/// The sealed secret of a git credential item, in git-credential-osxkeychain's layout: the
/// password, then `password_expiry_utc=` and `oauth_refresh_token=` lines when set.
///
/// ```text
/// s3cr3t
/// password_expiry_utc=1767225600
/// oauth_refresh_token=r3fr3sh
/// ```
///
/// The whole text is the item's secret (`kSecValueData`), sealed like every secret: the
/// expiry and the refresh token are never in an attribute, so no query can find items by
/// them and a locked store reveals neither. `secstore get` shows the password on the first line.
///
/// ```swift
/// let secret = GitSecret(password: "s3cr3t", expiry: 1_767_225_600, refreshToken: nil)
/// let decoded = GitSecret(decoding: secret.encoded)   // == secret
/// ```
public struct GitSecret: Sendable, Equatable, CustomStringConvertible {
    /// The password (or access token).
    public var password: String
    /// `password_expiry_utc`: seconds since 1970, UTC.
    public var expiry: Int64?
    /// `oauth_refresh_token`.
    public var refreshToken: String?

    /// A secret with these parts.
    ///
    /// ```swift
    /// let secret = GitSecret(password: "gho_abc", expiry: nil, refreshToken: "ghr_def")
    /// ```
    public init(password: String, expiry: Int64?, refreshToken: String?) {
        self.password = password
        self.expiry = expiry
        self.refreshToken = refreshToken
    }

    /// Reads a stored secret: the first line is the password; later `key=value` lines carry
    /// the expiry and the refresh token, and any other line is ignored. A secret written by
    /// another tool (`secstore add`) is its first line. Bytes that are not UTF-8 are replaced.
    ///
    /// Lines end at newline bytes, whatever comes before them: a password may end in a
    /// carriage return (split as Swift `Character`s, CR LF was one, and the password swallowed
    /// the lines after it).
    ///
    /// ```swift
    /// GitSecret(decoding: Data("pw\npassword_expiry_utc=42".utf8)).expiry   // 42
    /// ```
    public init(decoding data: Data) {
        self.init(password: "", expiry: nil, refreshToken: nil)
        // Split in place: no copy of the secret's bytes is left on the heap.
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            let lines = bytes.split(separator: 0x0A, maxSplits: .max, omittingEmptySubsequences: false)
            password = lines.first.map { String(decoding: $0, as: UTF8.self) } ?? ""
            for line in lines.dropFirst() {
                guard let separator = line.firstIndex(of: 0x3D) else { continue }
                let key = line[..<separator], value = line[(separator + 1)...]
                if key.elementsEqual("password_expiry_utc".utf8) {
                    expiry = Self.seconds(String(decoding: value, as: UTF8.self))
                } else if key.elementsEqual("oauth_refresh_token".utf8) {
                    refreshToken = value.isEmpty ? nil : String(decoding: value, as: UTF8.self)
                }
            }
        }
    }

    /// The bytes stored as the item's secret.
    ///
    /// ```swift
    /// try store.add(Item(itemClass: .internetPassword, attributes: attributes, data: secret.encoded))
    /// ```
    public var encoded: Data {
        var text = password
        if let expiry { text += "\npassword_expiry_utc=\(expiry)" }
        if let refreshToken { text += "\noauth_refresh_token=\(refreshToken)" }
        return Data(text.utf8)
    }

    /// The secret `store` writes over `stored`, the secret of the credential it replaces:
    /// this request's, except for what a request leaves out that belongs to the same password.
    ///
    /// - The expiry: `stored`'s when the request carries neither an expiry nor a refresh
    ///   token and its password equals the stored one; otherwise the request's (or none).
    ///   git before 2.41 reads neither field from a helper's answer and so sends the password
    ///   it was given back bare after a successful login; the expiry stays with the password,
    ///   already past or not, so an expired token is never handed out as valid. A request that
    ///   carries either field comes from a git that knows both, and passes back what it has.
    /// - The refresh token: the request's when it brings one; else `stored`'s while the
    ///   password is the same; none when the password changed (a new password is a new
    ///   credential, and the old grant's refresh token is not kept alongside it).
    ///
    /// ```swift
    /// let stored = GitSecret(password: "gho_a", expiry: 1_767_225_600, refreshToken: "ghr_b")
    /// GitSecret(password: "gho_a", expiry: nil, refreshToken: nil).replacing(stored)   // == stored
    /// GitSecret(password: "typed", expiry: nil, refreshToken: nil).replacing(stored)   // neither kept
    /// ```
    public func replacing(_ stored: GitSecret) -> GitSecret {
        replacing(stored, samePassword: stored.hasPassword(password))
    }

    /// ``replacing(_:)`` over the stored secret's bytes, as `store` reads them: the password is
    /// the same only when the stored one's own bytes are this password's UTF-8
    /// (``storedPassword(of:is:)``), so one that is not UTF-8 is never the same as the
    /// U+FFFD-replaced text decoding makes of it, and keeps nothing of it.
    ///
    /// ```swift
    /// let replacement = item.data.map { secret.replacing(storedSecret: $0) } ?? secret
    /// ```
    public func replacing(storedSecret data: Data) -> GitSecret {
        replacing(GitSecret(decoding: data), samePassword: Self.storedPassword(of: data, is: password))
    }

    private func replacing(_ stored: GitSecret, samePassword: Bool) -> GitSecret {
        let bare = expiry == nil && refreshToken == nil
        return GitSecret(password: password,
                         expiry: bare && samePassword ? stored.expiry : expiry,
                         refreshToken: refreshToken ?? (samePassword ? stored.refreshToken : nil))
    }

    /// Whether `candidate` is this secret's password: the same UTF-8 bytes, compared in
    /// constant time (`sodium_memcmp`). Never Swift's `String ==`, which stops at the first
    /// difference and calls canonically equivalent spellings ("é" and "e" + U+0301) equal.
    ///
    /// ```swift
    /// GitSecret(decoding: item.data ?? Data()).hasPassword(request.password ?? "")
    /// ```
    public func hasPassword(_ candidate: String) -> Bool {
        var stored = Array(password.utf8), given = Array(candidate.utf8)
        // The copies are wiped: passwords leave no bytes behind on the heap.
        defer {
            Wipe.bytes(&stored)
            Wipe.bytes(&given)
        }
        return ConstantTime.equals(stored, given)
    }

    /// Whether the stored secret `data` has `candidate` as its password: its first line's own
    /// bytes equal `candidate`'s UTF-8, compared in constant time. Unlike
    /// `GitSecret(decoding: data).hasPassword(candidate)`, a stored password that is not UTF-8
    /// is never equal to the U+FFFD-replaced text decoding makes of it.
    ///
    /// ```swift
    /// let doomed = GitSecret.storedPassword(of: item.data ?? Data(), is: request.password ?? "")
    /// ```
    public static func storedPassword(of data: Data, is candidate: String) -> Bool {
        var stored = Array(data.prefix { $0 != 0x0A }), given = Array(candidate.utf8)
        defer {
            Wipe.bytes(&stored)
            Wipe.bytes(&given)
        }
        return ConstantTime.equals(stored, given)
    }

    /// Whether `data` is UTF-8 text throughout, so that decoding it replaces nothing: only
    /// such a secret is answered to git (whose answer would otherwise hold a password the
    /// server never issued). Decoded in place, scalar by scalar: `String(validating:)` would
    /// make a copy of the secret that nothing wipes.
    ///
    /// ```swift
    /// guard GitSecret.isUTF8(data) else { return nil }
    /// ```
    public static func isUTF8(_ data: Data) -> Bool {
        var bytes = data.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&bytes) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Whether the password has expired at `date`: git's rule, an expiry before now.
    ///
    /// ```swift
    /// secret.isExpired(at: Date())
    /// ```
    public func isExpired(at date: Date) -> Bool {
        guard let expiry else { return false }
        return Double(expiry) < date.timeIntervalSince1970.rounded(.down)
    }

    /// Never shows the password or the refresh token.
    public var description: String {
        "GitSecret(password: <redacted>, expiry: \(expiry.map(String.init) ?? "none"), refresh token: \(refreshToken == nil ? "none" : "<redacted>"))"
    }

    /// Seconds since 1970 written in decimal digits, as git writes `password_expiry_utc`.
    static func seconds(_ text: some StringProtocol) -> Int64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text)
    }
}
