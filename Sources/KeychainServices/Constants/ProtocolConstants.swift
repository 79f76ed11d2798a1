import Foundation

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
public let kSecAttrProtocolFTP: CFString = "ftp "
/// `kSecAttrProtocolFTPAccount` (`"ftpa"`): FTP account.
public let kSecAttrProtocolFTPAccount: CFString = "ftpa"
/// `kSecAttrProtocolHTTP` (`"http"`): HTTP.
public let kSecAttrProtocolHTTP: CFString = "http"
/// `kSecAttrProtocolIRC` (`"irc "`): IRC.
public let kSecAttrProtocolIRC: CFString = "irc "
/// `kSecAttrProtocolNNTP` (`"nntp"`): NNTP.
public let kSecAttrProtocolNNTP: CFString = "nntp"
/// `kSecAttrProtocolPOP3` (`"pop3"`): POP3.
public let kSecAttrProtocolPOP3: CFString = "pop3"
/// `kSecAttrProtocolSMTP` (`"smtp"`): SMTP.
public let kSecAttrProtocolSMTP: CFString = "smtp"
/// `kSecAttrProtocolSOCKS` (`"sox "`): SOCKS.
public let kSecAttrProtocolSOCKS: CFString = "sox "
/// `kSecAttrProtocolIMAP` (`"imap"`): IMAP.
public let kSecAttrProtocolIMAP: CFString = "imap"
/// `kSecAttrProtocolLDAP` (`"ldap"`): LDAP.
public let kSecAttrProtocolLDAP: CFString = "ldap"
/// `kSecAttrProtocolAppleTalk` (`"atlk"`): AppleTalk.
public let kSecAttrProtocolAppleTalk: CFString = "atlk"
/// `kSecAttrProtocolAFP` (`"afp "`): AFP.
public let kSecAttrProtocolAFP: CFString = "afp "
/// `kSecAttrProtocolTelnet` (`"teln"`): Telnet.
public let kSecAttrProtocolTelnet: CFString = "teln"
/// `kSecAttrProtocolSSH` (`"ssh "`): SSH.
public let kSecAttrProtocolSSH: CFString = "ssh "
/// `kSecAttrProtocolFTPS` (`"ftps"`): FTP over TLS.
public let kSecAttrProtocolFTPS: CFString = "ftps"
/// `kSecAttrProtocolHTTPS` (`"htps"`): HTTPS.
public let kSecAttrProtocolHTTPS: CFString = "htps"
/// `kSecAttrProtocolHTTPProxy` (`"htpx"`): HTTP proxy.
public let kSecAttrProtocolHTTPProxy: CFString = "htpx"
/// `kSecAttrProtocolHTTPSProxy` (`"htsx"`): HTTPS proxy.
public let kSecAttrProtocolHTTPSProxy: CFString = "htsx"
/// `kSecAttrProtocolFTPProxy` (`"ftpx"`): FTP proxy.
public let kSecAttrProtocolFTPProxy: CFString = "ftpx"
/// `kSecAttrProtocolSMB` (`"smb "`): SMB.
public let kSecAttrProtocolSMB: CFString = "smb "
/// `kSecAttrProtocolRTSP` (`"rtsp"`): RTSP.
public let kSecAttrProtocolRTSP: CFString = "rtsp"
/// `kSecAttrProtocolRTSPProxy` (`"rtsx"`): RTSP proxy.
public let kSecAttrProtocolRTSPProxy: CFString = "rtsx"
/// `kSecAttrProtocolDAAP` (`"daap"`): DAAP.
public let kSecAttrProtocolDAAP: CFString = "daap"
/// `kSecAttrProtocolEPPC` (`"eppc"`): EPPC (remote Apple events).
public let kSecAttrProtocolEPPC: CFString = "eppc"
/// `kSecAttrProtocolIPP` (`"ipp "`): IPP.
public let kSecAttrProtocolIPP: CFString = "ipp "
/// `kSecAttrProtocolNNTPS` (`"ntps"`): NNTP over TLS.
public let kSecAttrProtocolNNTPS: CFString = "ntps"
/// `kSecAttrProtocolLDAPS` (`"ldps"`): LDAP over TLS.
public let kSecAttrProtocolLDAPS: CFString = "ldps"
/// `kSecAttrProtocolTelnetS` (`"tels"`): Telnet over TLS.
public let kSecAttrProtocolTelnetS: CFString = "tels"
/// `kSecAttrProtocolIMAPS` (`"imps"`): IMAP over TLS.
public let kSecAttrProtocolIMAPS: CFString = "imps"
/// `kSecAttrProtocolIRCS` (`"ircs"`): IRC over TLS.
public let kSecAttrProtocolIRCS: CFString = "ircs"
/// `kSecAttrProtocolPOP3S` (`"pops"`): POP3 over TLS.
public let kSecAttrProtocolPOP3S: CFString = "pops"

/// `kSecAttrAuthenticationTypeNTLM` (`"ntlm"`): Windows NT LAN Manager.
public let kSecAttrAuthenticationTypeNTLM: CFString = "ntlm"
/// `kSecAttrAuthenticationTypeMSN` (`"msna"`): Microsoft Network default.
public let kSecAttrAuthenticationTypeMSN: CFString = "msna"
/// `kSecAttrAuthenticationTypeDPA` (`"dpaa"`): Distributed Password authentication.
public let kSecAttrAuthenticationTypeDPA: CFString = "dpaa"
/// `kSecAttrAuthenticationTypeRPA` (`"rpaa"`): Remote Password authentication.
public let kSecAttrAuthenticationTypeRPA: CFString = "rpaa"
/// `kSecAttrAuthenticationTypeHTTPBasic` (`"http"`): HTTP Basic.
public let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http"
/// `kSecAttrAuthenticationTypeHTTPDigest` (`"httd"`): HTTP Digest Access.
public let kSecAttrAuthenticationTypeHTTPDigest: CFString = "httd"
/// `kSecAttrAuthenticationTypeHTMLForm` (`"form"`): HTML form.
public let kSecAttrAuthenticationTypeHTMLForm: CFString = "form"
/// `kSecAttrAuthenticationTypeDefault` (`"dflt"`): the default authentication type.
public let kSecAttrAuthenticationTypeDefault: CFString = "dflt"
