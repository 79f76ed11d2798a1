/// `kSecAttrProtocol` values: Apple's four-character codes, trailing spaces included.
///
/// ```swift
/// attributes.protocol = .https   // stored as "htps"
/// ```
public struct InternetProtocol: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let ftp = Self(rawValue: "ftp "), ftpAccount = Self(rawValue: "ftpa")
    public static let http = Self(rawValue: "http"), irc = Self(rawValue: "irc ")
    public static let nntp = Self(rawValue: "nntp"), pop3 = Self(rawValue: "pop3")
    public static let smtp = Self(rawValue: "smtp"), socks = Self(rawValue: "sox ")
    public static let imap = Self(rawValue: "imap"), ldap = Self(rawValue: "ldap")
    public static let appleTalk = Self(rawValue: "atlk"), afp = Self(rawValue: "afp ")
    public static let telnet = Self(rawValue: "teln"), ssh = Self(rawValue: "ssh ")
    public static let ftps = Self(rawValue: "ftps"), https = Self(rawValue: "htps")
    public static let httpProxy = Self(rawValue: "htpx"), httpsProxy = Self(rawValue: "htsx")
    public static let ftpProxy = Self(rawValue: "ftpx"), smb = Self(rawValue: "smb ")
    public static let rtsp = Self(rawValue: "rtsp"), rtspProxy = Self(rawValue: "rtsx")
    public static let daap = Self(rawValue: "daap"), eppc = Self(rawValue: "eppc")
    public static let ipp = Self(rawValue: "ipp "), nntps = Self(rawValue: "ntps")
    public static let ldaps = Self(rawValue: "ldps"), telnets = Self(rawValue: "tels")
    public static let imaps = Self(rawValue: "imps"), ircs = Self(rawValue: "ircs")
    public static let pop3s = Self(rawValue: "pops")
}

/// `kSecAttrAuthenticationType` values.
public struct AuthenticationType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let ntlm = Self(rawValue: "ntlm"), msn = Self(rawValue: "msna")
    public static let dpa = Self(rawValue: "dpaa"), rpa = Self(rawValue: "rpaa")
    public static let httpBasic = Self(rawValue: "http"), httpDigest = Self(rawValue: "httd")
    public static let htmlForm = Self(rawValue: "form"), `default` = Self(rawValue: "dflt")
}
