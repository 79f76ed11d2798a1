import Foundation
import KeychainServices
import Testing

/// Every constant has the string Apple's Security framework gives it (SecItemConstants.c,
/// reference §1), so dictionaries look the same in logs and results on both systems.
@Suite("Constants") struct ConstantTests {
    static var classes: [(CFString, String)] { [
        (kSecClass, "class"), (kSecClassGenericPassword, "genp"), (kSecClassInternetPassword, "inet"),
        (kSecClassCertificate, "cert"), (kSecClassKey, "keys"), (kSecClassIdentity, "idnt"),
    ] }
    static var attributes: [(CFString, String)] { [
        (kSecAttrAccessGroup, "agrp"), (kSecAttrAccessible, "pdmn"), (kSecAttrAccessControl, "accc"),
        (kSecAttrCreationDate, "cdat"), (kSecAttrModificationDate, "mdat"), (kSecAttrDescription, "desc"),
        (kSecAttrComment, "icmt"), (kSecAttrCreator, "crtr"), (kSecAttrType, "type"), (kSecAttrLabel, "labl"),
        (kSecAttrIsInvisible, "invi"), (kSecAttrIsNegative, "nega"), (kSecAttrAccount, "acct"),
        (kSecAttrSynchronizable, "sync"), (kSecAttrSyncViewHint, "vwht"), (kSecAttrTokenID, "tkid"),
        (kSecAttrPersistentReference, "persistref"), (kSecAttrPersistantReference, "persistref"),
        (kSecAttrService, "svce"), (kSecAttrGeneric, "gena"), (kSecAttrSecurityDomain, "sdmn"),
        (kSecAttrServer, "srvr"), (kSecAttrProtocol, "ptcl"), (kSecAttrAuthenticationType, "atyp"),
        (kSecAttrPort, "port"), (kSecAttrPath, "path"), (kSecAttrAccessGroupToken, "com.apple.token"),
        (kSecAttrTokenIDSecureEnclave, "com.apple.setoken"),
    ] }
    static var accessibility: [(CFString, String)] { [
        (kSecAttrAccessibleWhenUnlocked, "ak"), (kSecAttrAccessibleAfterFirstUnlock, "ck"),
        (kSecAttrAccessibleAlways, "dk"), (kSecAttrAccessibleWhenUnlockedThisDeviceOnly, "aku"),
        (kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, "cku"), (kSecAttrAccessibleAlwaysThisDeviceOnly, "dku"),
        (kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, "akpu"), (kSecAttrSynchronizableAny, "syna"),
    ] }
    static var protocols: [(CFString, String)] { [
        (kSecAttrProtocolFTP, "ftp "), (kSecAttrProtocolFTPAccount, "ftpa"), (kSecAttrProtocolHTTP, "http"),
        (kSecAttrProtocolIRC, "irc "), (kSecAttrProtocolNNTP, "nntp"), (kSecAttrProtocolPOP3, "pop3"),
        (kSecAttrProtocolSMTP, "smtp"), (kSecAttrProtocolSOCKS, "sox "), (kSecAttrProtocolIMAP, "imap"),
        (kSecAttrProtocolLDAP, "ldap"), (kSecAttrProtocolAppleTalk, "atlk"), (kSecAttrProtocolAFP, "afp "),
        (kSecAttrProtocolTelnet, "teln"), (kSecAttrProtocolSSH, "ssh "), (kSecAttrProtocolFTPS, "ftps"),
        (kSecAttrProtocolHTTPS, "htps"), (kSecAttrProtocolHTTPProxy, "htpx"), (kSecAttrProtocolHTTPSProxy, "htsx"),
        (kSecAttrProtocolFTPProxy, "ftpx"), (kSecAttrProtocolSMB, "smb "), (kSecAttrProtocolRTSP, "rtsp"),
        (kSecAttrProtocolRTSPProxy, "rtsx"), (kSecAttrProtocolDAAP, "daap"), (kSecAttrProtocolEPPC, "eppc"),
        (kSecAttrProtocolIPP, "ipp "), (kSecAttrProtocolNNTPS, "ntps"), (kSecAttrProtocolLDAPS, "ldps"),
        (kSecAttrProtocolTelnetS, "tels"), (kSecAttrProtocolIMAPS, "imps"), (kSecAttrProtocolIRCS, "ircs"),
        (kSecAttrProtocolPOP3S, "pops"),
        (kSecAttrAuthenticationTypeNTLM, "ntlm"), (kSecAttrAuthenticationTypeMSN, "msna"),
        (kSecAttrAuthenticationTypeDPA, "dpaa"), (kSecAttrAuthenticationTypeRPA, "rpaa"),
        (kSecAttrAuthenticationTypeHTTPBasic, "http"), (kSecAttrAuthenticationTypeHTTPDigest, "httd"),
        (kSecAttrAuthenticationTypeHTMLForm, "form"), (kSecAttrAuthenticationTypeDefault, "dflt"),
    ] }
    static var search: [(CFString, String)] { [
        (kSecMatchLimit, "m_Limit"), (kSecMatchLimitOne, "m_LimitOne"), (kSecMatchLimitAll, "m_LimitAll"),
        (kSecMatchCaseInsensitive, "m_CaseInsensitive"), (kSecMatchHostOrSubdomainOfHost, "m_HostOrSubdomainOfHost"),
        (kSecMatchItemList, "m_ItemList"), (kSecMatchSearchList, "m_SearchList"), (kSecMatchPolicy, "m_Policy"),
        (kSecMatchIssuers, "m_Issuers"), (kSecMatchEmailAddressIfPresent, "m_EmailAddressIfPresent"),
        (kSecMatchSubjectContains, "m_SubjectContains"), (kSecMatchSubjectStartsWith, "m_SubjectStartsWith"),
        (kSecMatchSubjectEndsWith, "m_SubjectEndsWith"), (kSecMatchSubjectWholeString, "m_SubjectWholeString"),
        (kSecMatchTrustedOnly, "m_TrustedOnly"), (kSecMatchValidOnDate, "m_ValidOnDate"),
        (kSecMatchDiacriticInsensitive, "m_DiacriticInsensitive"), (kSecMatchWidthInsensitive, "m_WidthInsensitive"),
        (kSecReturnData, "r_Data"), (kSecReturnAttributes, "r_Attributes"), (kSecReturnRef, "r_Ref"),
        (kSecReturnPersistentRef, "r_PersistentRef"), (kSecValueData, "v_Data"), (kSecValueRef, "v_Ref"),
        (kSecValuePersistentRef, "v_PersistentRef"),
        (kSecUseDataProtectionKeychain, "nleg"), (kSecUseOperationPrompt, "u_OpPrompt"),
        (kSecUseNoAuthenticationUI, "u_NoAuthUI"), (kSecUseAuthenticationUI, "u_AuthUI"),
        (kSecUseAuthenticationUIAllow, "u_AuthUIA"), (kSecUseAuthenticationUIFail, "u_AuthUIF"),
        (kSecUseAuthenticationUISkip, "u_AuthUIS"), (kSecUseAuthenticationContext, "u_AuthCtx"),
        (kSecUseItemList, "u_ItemList"),
    ] }

    @Test("Every kSec constant has Apple's string value")
    func appleStrings() {
        for (constant, apple) in Self.classes + Self.attributes + Self.accessibility + Self.protocols + Self.search {
            #expect(constant as String == apple)
            #expect(String(constant) == apple)
        }
    }

    @Test("kCFBooleanTrue and kCFBooleanFalse are booleans, not the numbers 1 and 0")
    func booleans() {
        #expect(CFBooleanGetValue(kCFBooleanTrue))
        #expect(!CFBooleanGetValue(kCFBooleanFalse))
        let asAny: Any = kCFBooleanTrue!
        #expect(!(asAny is Int))
        #expect(asAny as? Bool == true)
    }

    @Test("Queries print with Apple's keys, as in logs on Apple systems")
    func loggedQuery() {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "alice",
                                    kSecMatchLimit as String: kSecMatchLimitOne]
        let printed = String(describing: query as NSDictionary)
        #expect(printed.contains("class"))
        #expect(printed.contains("genp"))
        #expect(printed.contains("acct"))
        #expect(printed.contains("m_LimitOne"))
    }
}
