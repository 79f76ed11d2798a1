import Foundation

// The constants are immutable NSString objects that nothing mutates, so sharing them between
// threads is safe; `nonisolated(unsafe)` says so, since Foundation does not mark NSString
// Sendable on Linux.

// Values of `kSecAttrProtocol` and `kSecAttrAuthenticationType` for internet passwords:
// Apple's four-character codes, trailing spaces included ("ftp " is four characters).
// Internet passwords store them as given and match them byte for byte.

/// `kSecAttrProtocolFTP` (`"ftp "`): FTP.
///
/// ```swift
/// let query: [String: Any] = [kSecClass as String: kSecClassInternetPassword,
///                             kSecAttrServer as String: "example.com",
///                             kSecAttrProtocol as String: kSecAttrProtocolHTTPS]
/// ```
nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = "ftp "
/// `kSecAttrProtocolFTPAccount` (`"ftpa"`): FTP account.
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = "ftpa"
/// `kSecAttrProtocolHTTP` (`"http"`): HTTP.
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = "http"
/// `kSecAttrProtocolIRC` (`"irc "`): IRC.
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = "irc "
/// `kSecAttrProtocolNNTP` (`"nntp"`): NNTP.
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = "nntp"
/// `kSecAttrProtocolPOP3` (`"pop3"`): POP3.
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = "pop3"
/// `kSecAttrProtocolSMTP` (`"smtp"`): SMTP.
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = "smtp"
/// `kSecAttrProtocolSOCKS` (`"sox "`): SOCKS.
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = "sox "
/// `kSecAttrProtocolIMAP` (`"imap"`): IMAP.
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = "imap"
/// `kSecAttrProtocolLDAP` (`"ldap"`): LDAP.
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = "ldap"
/// `kSecAttrProtocolAppleTalk` (`"atlk"`): AppleTalk.
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = "atlk"
/// `kSecAttrProtocolAFP` (`"afp "`): AFP.
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = "afp "
/// `kSecAttrProtocolTelnet` (`"teln"`): Telnet.
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = "teln"
/// `kSecAttrProtocolSSH` (`"ssh "`): SSH.
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = "ssh "
/// `kSecAttrProtocolFTPS` (`"ftps"`): FTP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = "ftps"
/// `kSecAttrProtocolHTTPS` (`"htps"`): HTTPS.
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = "htps"
/// `kSecAttrProtocolHTTPProxy` (`"htpx"`): HTTP proxy.
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = "htpx"
/// `kSecAttrProtocolHTTPSProxy` (`"htsx"`): HTTPS proxy.
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = "htsx"
/// `kSecAttrProtocolFTPProxy` (`"ftpx"`): FTP proxy.
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = "ftpx"
/// `kSecAttrProtocolSMB` (`"smb "`): SMB.
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = "smb "
/// `kSecAttrProtocolRTSP` (`"rtsp"`): RTSP.
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = "rtsp"
/// `kSecAttrProtocolRTSPProxy` (`"rtsx"`): RTSP proxy.
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = "rtsx"
/// `kSecAttrProtocolDAAP` (`"daap"`): DAAP.
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = "daap"
/// `kSecAttrProtocolEPPC` (`"eppc"`): EPPC (remote Apple events).
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = "eppc"
/// `kSecAttrProtocolIPP` (`"ipp "`): IPP.
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = "ipp "
/// `kSecAttrProtocolNNTPS` (`"ntps"`): NNTP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = "ntps"
/// `kSecAttrProtocolLDAPS` (`"ldps"`): LDAP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = "ldps"
/// `kSecAttrProtocolTelnetS` (`"tels"`): Telnet over TLS.
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = "tels"
/// `kSecAttrProtocolIMAPS` (`"imps"`): IMAP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = "imps"
/// `kSecAttrProtocolIRCS` (`"ircs"`): IRC over TLS.
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = "ircs"
/// `kSecAttrProtocolPOP3S` (`"pops"`): POP3 over TLS.
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = "pops"

/// `kSecAttrAuthenticationTypeNTLM` (`"ntlm"`): Windows NT LAN Manager.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = "ntlm"
/// `kSecAttrAuthenticationTypeMSN` (`"msna"`): Microsoft Network default.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = "msna"
/// `kSecAttrAuthenticationTypeDPA` (`"dpaa"`): Distributed Password authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = "dpaa"
/// `kSecAttrAuthenticationTypeRPA` (`"rpaa"`): Remote Password authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = "rpaa"
/// `kSecAttrAuthenticationTypeHTTPBasic` (`"http"`): HTTP Basic.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http"
/// `kSecAttrAuthenticationTypeHTTPDigest` (`"httd"`): HTTP Digest Access.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = "httd"
/// `kSecAttrAuthenticationTypeHTMLForm` (`"form"`): HTML form.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = "form"
/// `kSecAttrAuthenticationTypeDefault` (`"dflt"`): the default authentication type.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = "dflt"
