import SecStore

/// URL schemes and Apple's `kSecAttrProtocol` codes: the one table both helpers use.
///
/// A scheme Apple has a code for is stored as that code (`https` as `htps`), as Apple's own
/// helpers store it. Any other well-formed scheme (`cert`, `git`, `smtps`, …) is stored as
/// itself, unless its text is one of Apple's codes for another scheme (`htps`, `imps`, …),
/// which would read back as that scheme: such a scheme is refused.
///
/// ```swift
/// SchemeCodes.code(forScheme: "https")      // InternetProtocol.https ("htps")
/// SchemeCodes.scheme(forCode: .https)       // "https"
/// SchemeCodes.code(forScheme: "cert")       // InternetProtocol(rawValue: "cert")
/// ```
public enum SchemeCodes {
    /// Schemes with an Apple code, and the code.
    static let known: [(scheme: String, code: InternetProtocol)] = [
        ("http", .http), ("https", .https), ("ftp", .ftp), ("ftps", .ftps), ("imap", .imap),
        ("imaps", .imaps), ("smtp", .smtp), ("pop3", .pop3), ("pop3s", .pop3s), ("ldap", .ldap),
        ("ldaps", .ldaps), ("ssh", .ssh), ("telnet", .telnet), ("telnets", .telnets), ("nntp", .nntp),
        ("nntps", .nntps), ("irc", .irc), ("ircs", .ircs), ("socks", .socks), ("smb", .smb),
        ("afp", .afp), ("rtsp", .rtsp), ("ipp", .ipp), ("daap", .daap), ("eppc", .eppc),
    ]

    /// Apple codes with no scheme of their own here; an unknown scheme spelled like one is refused too.
    static let otherCodes: [InternetProtocol] = [.ftpAccount, .appleTalk, .httpProxy, .httpsProxy, .ftpProxy, .rtspProxy]

    /// The longest scheme accepted.
    static let maximumSchemeLength = 64

    /// The code a scheme is stored under, or `nil` when the scheme is not a well-formed URL
    /// scheme (a letter, then letters, digits, `+`, `-`, `.`) or is spelled like another
    /// scheme's Apple code. Schemes compare without regard to ASCII case (`ASCIICase`): a
    /// scheme with any other character is not well-formed.
    ///
    /// ```swift
    /// SchemeCodes.code(forScheme: "HTTPS")?.rawValue   // "htps"
    /// SchemeCodes.code(forScheme: "htps")              // nil: reads as https
    /// ```
    public static func code(forScheme scheme: String) -> InternetProtocol? {
        let scheme = ASCIICase.lowercased(scheme)
        guard isWellFormed(scheme) else { return nil }
        if let entry = known.first(where: { $0.scheme == scheme }) { return entry.code }
        let collides = known.contains { $0.code.rawValue == scheme } || otherCodes.contains { $0.rawValue == scheme }
        return collides ? nil : InternetProtocol(rawValue: scheme)
    }

    /// The scheme of a stored code: the known scheme for Apple's codes, else the code itself.
    ///
    /// ```swift
    /// SchemeCodes.scheme(forCode: InternetProtocol(rawValue: "imps"))   // "imaps"
    /// ```
    public static func scheme(forCode code: InternetProtocol) -> String {
        known.first { $0.code == code }?.scheme ?? code.rawValue
    }

    /// Whether `scheme` (ASCII letters lowercased) is a URL scheme: a letter, then letters,
    /// digits, `+`, `-`, `.`, at most ``maximumSchemeLength`` bytes.
    static func isWellFormed(_ scheme: String) -> Bool {
        let bytes = Array(scheme.utf8)
        guard let first = bytes.first, bytes.count <= maximumSchemeLength, isLetter(first) else { return false }
        return bytes.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
}
