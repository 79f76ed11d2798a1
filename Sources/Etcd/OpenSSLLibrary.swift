#if canImport(Glibc)
import Glibc
#endif

/// The few OpenSSL functions TLS needs, looked up at run time in the system's libssl (the one
/// libcurl, and so Foundation, already loads), so that the package needs neither OpenSSL's
/// headers at build time nor a new dependency. Every function used here is a plain
/// (non-variadic, non-macro) C function of OpenSSL 1.1 and 3's stable ABI.
struct OpenSSLLibrary: @unchecked Sendable {
    // @unchecked: immutable C function pointers.
    typealias Pointer = OpaquePointer
    typealias CString = UnsafePointer<CChar>

    let clientMethod: @convention(c) () -> Pointer?
    let contextNew: @convention(c) (Pointer?) -> Pointer?
    let contextFree: @convention(c) (Pointer?) -> Void
    let contextSetVerify: @convention(c) (Pointer?, Int32, UnsafeRawPointer?) -> Void
    let contextLoadVerifyLocations: @convention(c) (Pointer?, CString?, CString?) -> Int32
    let contextSetDefaultVerifyPaths: @convention(c) (Pointer?) -> Int32
    let contextUseCertificateChainFile: @convention(c) (Pointer?, CString?) -> Int32
    let contextUsePrivateKeyFile: @convention(c) (Pointer?, CString?, Int32) -> Int32
    let contextCheckPrivateKey: @convention(c) (Pointer?) -> Int32
    let new: @convention(c) (Pointer?) -> Pointer?
    let free: @convention(c) (Pointer?) -> Void
    let setFD: @convention(c) (Pointer?, Int32) -> Int32
    let control: @convention(c) (Pointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let setHost: @convention(c) (Pointer?, CString?) -> Int32
    let parameters: @convention(c) (Pointer?) -> Pointer?
    let parametersSetIP: @convention(c) (Pointer?, CString?) -> Int32
    let connect: @convention(c) (Pointer?) -> Int32
    let read: @convention(c) (Pointer?, UnsafeMutableRawPointer?, Int32) -> Int32
    let write: @convention(c) (Pointer?, UnsafeRawPointer?, Int32) -> Int32
    let getError: @convention(c) (Pointer?, Int32) -> Int32
    let verifyResult: @convention(c) (Pointer?) -> Int
    let verifyErrorString: @convention(c) (Int) -> CString?
    let errorGet: @convention(c) () -> UInt
    let errorPeek: @convention(c) () -> UInt
    let errorString: @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    let errorClear: @convention(c) () -> Void

    // Constants of OpenSSL's ABI (ssl.h, tls1.h, x509_vfy.h).
    static let verifyPeer: Int32 = 1
    static let fileTypePEM: Int32 = 1
    static let controlSetTLSExtHostName: Int32 = 55
    static let nameTypeHostName = 0
    static let errorWantRead: Int32 = 2
    static let errorWantWrite: Int32 = 3
    static let errorSyscall: Int32 = 5
    static let errorZeroReturn: Int32 = 6

    /// The library, or why it could not be loaded.
    static let shared: Result<OpenSSLLibrary, EtcdError> = load()

    private static func load() -> Result<OpenSSLLibrary, EtcdError> {
        let sonames: [String] = ["libssl.so.3", "libssl.so.1.1", "libssl.so"]
        guard let handle = sonames.lazy.compactMap({ (name: String) in dlopen(name, RTLD_NOW) }).first else {
            return .failure(.tls("OpenSSL's libssl (libssl.so.3 or .1.1) is not installed"))
        }
        // dlsym on libssl's handle also searches libcrypto, its dependency.
        let missing = names.filter { dlsym(handle, $0) == nil }
        guard missing.isEmpty else { return .failure(.tls("libssl lacks \(missing.joined(separator: ", "))")) }
        func symbol<T>(_ name: String, as type: T.Type) -> T { unsafeBitCast(dlsym(handle, name)!, to: type) }
        return .success(OpenSSLLibrary(
            clientMethod: symbol("TLS_client_method", as: (@convention(c) () -> Pointer?).self),
            contextNew: symbol("SSL_CTX_new", as: (@convention(c) (Pointer?) -> Pointer?).self),
            contextFree: symbol("SSL_CTX_free", as: (@convention(c) (Pointer?) -> Void).self),
            contextSetVerify: symbol("SSL_CTX_set_verify", as: (@convention(c) (Pointer?, Int32, UnsafeRawPointer?) -> Void).self),
            contextLoadVerifyLocations: symbol("SSL_CTX_load_verify_locations", as: (@convention(c) (Pointer?, CString?, CString?) -> Int32).self),
            contextSetDefaultVerifyPaths: symbol("SSL_CTX_set_default_verify_paths", as: (@convention(c) (Pointer?) -> Int32).self),
            contextUseCertificateChainFile: symbol("SSL_CTX_use_certificate_chain_file", as: (@convention(c) (Pointer?, CString?) -> Int32).self),
            contextUsePrivateKeyFile: symbol("SSL_CTX_use_PrivateKey_file", as: (@convention(c) (Pointer?, CString?, Int32) -> Int32).self),
            contextCheckPrivateKey: symbol("SSL_CTX_check_private_key", as: (@convention(c) (Pointer?) -> Int32).self),
            new: symbol("SSL_new", as: (@convention(c) (Pointer?) -> Pointer?).self),
            free: symbol("SSL_free", as: (@convention(c) (Pointer?) -> Void).self),
            setFD: symbol("SSL_set_fd", as: (@convention(c) (Pointer?, Int32) -> Int32).self),
            control: symbol("SSL_ctrl", as: (@convention(c) (Pointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int).self),
            setHost: symbol("SSL_set1_host", as: (@convention(c) (Pointer?, CString?) -> Int32).self),
            parameters: symbol("SSL_get0_param", as: (@convention(c) (Pointer?) -> Pointer?).self),
            parametersSetIP: symbol("X509_VERIFY_PARAM_set1_ip_asc", as: (@convention(c) (Pointer?, CString?) -> Int32).self),
            connect: symbol("SSL_connect", as: (@convention(c) (Pointer?) -> Int32).self),
            read: symbol("SSL_read", as: (@convention(c) (Pointer?, UnsafeMutableRawPointer?, Int32) -> Int32).self),
            write: symbol("SSL_write", as: (@convention(c) (Pointer?, UnsafeRawPointer?, Int32) -> Int32).self),
            getError: symbol("SSL_get_error", as: (@convention(c) (Pointer?, Int32) -> Int32).self),
            verifyResult: symbol("SSL_get_verify_result", as: (@convention(c) (Pointer?) -> Int).self),
            verifyErrorString: symbol("X509_verify_cert_error_string", as: (@convention(c) (Int) -> CString?).self),
            errorGet: symbol("ERR_get_error", as: (@convention(c) () -> UInt).self),
            errorPeek: symbol("ERR_peek_error", as: (@convention(c) () -> UInt).self),
            errorString: symbol("ERR_error_string_n", as: (@convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void).self),
            errorClear: symbol("ERR_clear_error", as: (@convention(c) () -> Void).self)))
    }

    private static let names = [
        "TLS_client_method", "SSL_CTX_new", "SSL_CTX_free", "SSL_CTX_set_verify", "SSL_CTX_load_verify_locations",
        "SSL_CTX_set_default_verify_paths", "SSL_CTX_use_certificate_chain_file", "SSL_CTX_use_PrivateKey_file",
        "SSL_CTX_check_private_key", "SSL_new", "SSL_free", "SSL_set_fd", "SSL_ctrl", "SSL_set1_host", "SSL_get0_param",
        "X509_VERIFY_PARAM_set1_ip_asc", "SSL_connect", "SSL_read", "SSL_write", "SSL_get_error", "SSL_get_verify_result",
        "X509_verify_cert_error_string", "ERR_get_error", "ERR_peek_error", "ERR_error_string_n", "ERR_clear_error",
    ]

    /// OpenSSL's oldest queued error in words (and the queue emptied), for messages.
    func lastError(_ fallback: String) -> String {
        let code = errorGet()
        defer { errorClear() }
        guard code != 0 else { return fallback }
        var buffer = [CChar](repeating: 0, count: 256)
        errorString(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
