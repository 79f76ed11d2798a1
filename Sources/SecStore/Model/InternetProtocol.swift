/// `kSecAttrProtocol` values: Apple's four-character codes, trailing spaces included.
///
/// ```swift
/// attributes.protocol = .https   // stored as "htps"
/// ```
public struct InternetProtocol: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// Apple's four-character code, trailing spaces included, as stored in the item (`"htps"`).
    public let rawValue: String
    /// The protocol with this code. Any string is accepted, as Apple's API accepts any; the
    /// constants below are Apple's codes.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The four-character code.
    public var description: String { rawValue }

    /// `kSecAttrProtocolFTP` (`"ftp "`): FTP.
    public static let ftp = Self(rawValue: "ftp ")
    /// `kSecAttrProtocolFTPAccount` (`"ftpa"`): FTP account.
    public static let ftpAccount = Self(rawValue: "ftpa")
    /// `kSecAttrProtocolHTTP` (`"http"`): HTTP.
    public static let http = Self(rawValue: "http")
    /// `kSecAttrProtocolIRC` (`"irc "`): IRC.
    public static let irc = Self(rawValue: "irc ")
    /// `kSecAttrProtocolNNTP` (`"nntp"`): NNTP.
    public static let nntp = Self(rawValue: "nntp")
    /// `kSecAttrProtocolPOP3` (`"pop3"`): POP3.
    public static let pop3 = Self(rawValue: "pop3")
    /// `kSecAttrProtocolSMTP` (`"smtp"`): SMTP.
    public static let smtp = Self(rawValue: "smtp")
    /// `kSecAttrProtocolSOCKS` (`"sox "`): SOCKS.
    public static let socks = Self(rawValue: "sox ")
    /// `kSecAttrProtocolIMAP` (`"imap"`): IMAP.
    public static let imap = Self(rawValue: "imap")
    /// `kSecAttrProtocolLDAP` (`"ldap"`): LDAP.
    public static let ldap = Self(rawValue: "ldap")
    /// `kSecAttrProtocolAppleTalk` (`"atlk"`): AppleTalk.
    public static let appleTalk = Self(rawValue: "atlk")
    /// `kSecAttrProtocolAFP` (`"afp "`): AFP (Apple Filing Protocol).
    public static let afp = Self(rawValue: "afp ")
    /// `kSecAttrProtocolTelnet` (`"teln"`): Telnet.
    public static let telnet = Self(rawValue: "teln")
    /// `kSecAttrProtocolSSH` (`"ssh "`): SSH.
    public static let ssh = Self(rawValue: "ssh ")
    /// `kSecAttrProtocolFTPS` (`"ftps"`): FTP over TLS.
    public static let ftps = Self(rawValue: "ftps")
    /// `kSecAttrProtocolHTTPS` (`"htps"`): HTTPS.
    public static let https = Self(rawValue: "htps")
    /// `kSecAttrProtocolHTTPProxy` (`"htpx"`): HTTP proxy.
    public static let httpProxy = Self(rawValue: "htpx")
    /// `kSecAttrProtocolHTTPSProxy` (`"htsx"`): HTTPS proxy.
    public static let httpsProxy = Self(rawValue: "htsx")
    /// `kSecAttrProtocolFTPProxy` (`"ftpx"`): FTP proxy.
    public static let ftpProxy = Self(rawValue: "ftpx")
    /// `kSecAttrProtocolSMB` (`"smb "`): SMB.
    public static let smb = Self(rawValue: "smb ")
    /// `kSecAttrProtocolRTSP` (`"rtsp"`): RTSP.
    public static let rtsp = Self(rawValue: "rtsp")
    /// `kSecAttrProtocolRTSPProxy` (`"rtsx"`): RTSP proxy.
    public static let rtspProxy = Self(rawValue: "rtsx")
    /// `kSecAttrProtocolDAAP` (`"daap"`): DAAP.
    public static let daap = Self(rawValue: "daap")
    /// `kSecAttrProtocolEPPC` (`"eppc"`): EPPC (remote Apple events).
    public static let eppc = Self(rawValue: "eppc")
    /// `kSecAttrProtocolIPP` (`"ipp "`): IPP.
    public static let ipp = Self(rawValue: "ipp ")
    /// `kSecAttrProtocolNNTPS` (`"ntps"`): NNTP over TLS.
    public static let nntps = Self(rawValue: "ntps")
    /// `kSecAttrProtocolLDAPS` (`"ldps"`): LDAP over TLS.
    public static let ldaps = Self(rawValue: "ldps")
    /// `kSecAttrProtocolTelnetS` (`"tels"`): Telnet over TLS.
    public static let telnets = Self(rawValue: "tels")
    /// `kSecAttrProtocolIMAPS` (`"imps"`): IMAP over TLS.
    public static let imaps = Self(rawValue: "imps")
    /// `kSecAttrProtocolIRCS` (`"ircs"`): IRC over TLS.
    public static let ircs = Self(rawValue: "ircs")
    /// `kSecAttrProtocolPOP3S` (`"pops"`): POP3 over TLS.
    public static let pop3s = Self(rawValue: "pops")
}

/// `kSecAttrAuthenticationType` values: how an internet password authenticates, as Apple's
/// four-character codes.
///
/// ```swift
/// let item = Item.internetPassword(server: "example.com", account: "alice", data: secret,
///                                  protocol: .https, authenticationType: .htmlForm)
/// ```
public struct AuthenticationType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// Apple's four-character code, as stored in the item (`"dflt"`).
    public let rawValue: String
    /// The authentication type with this code. Any string is accepted, as Apple's API accepts
    /// any; the constants below are Apple's codes.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The four-character code.
    public var description: String { rawValue }

    /// `kSecAttrAuthenticationTypeNTLM` (`"ntlm"`): Windows NT LAN Manager.
    public static let ntlm = Self(rawValue: "ntlm")
    /// `kSecAttrAuthenticationTypeMSN` (`"msna"`): Microsoft Network default.
    public static let msn = Self(rawValue: "msna")
    /// `kSecAttrAuthenticationTypeDPA` (`"dpaa"`): Distributed Password authentication.
    public static let dpa = Self(rawValue: "dpaa")
    /// `kSecAttrAuthenticationTypeRPA` (`"rpaa"`): Remote Password authentication.
    public static let rpa = Self(rawValue: "rpaa")
    /// `kSecAttrAuthenticationTypeHTTPBasic` (`"http"`): HTTP Basic.
    public static let httpBasic = Self(rawValue: "http")
    /// `kSecAttrAuthenticationTypeHTTPDigest` (`"httd"`): HTTP Digest Access.
    public static let httpDigest = Self(rawValue: "httd")
    /// `kSecAttrAuthenticationTypeHTMLForm` (`"form"`): HTML form.
    public static let htmlForm = Self(rawValue: "form")
    /// `kSecAttrAuthenticationTypeDefault` (`"dflt"`): the default authentication type.
    public static let `default` = Self(rawValue: "dflt")
}
