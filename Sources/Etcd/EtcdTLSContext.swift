#if canImport(Glibc)
import Glibc
#endif

/// One client's OpenSSL context: the trusted CAs and the client certificate, loaded once;
/// every `https://` connection of the client starts from it.
final class EtcdTLSContext: @unchecked Sendable {
    // @unchecked: OpenSSL allows SSL_new on one SSL_CTX from many threads once it is set up,
    // and nothing changes it after init.
    let library: OpenSSLLibrary
    private let context: OpaquePointer

    init(_ settings: EtcdTLS) throws {
        library = try OpenSSLLibrary.shared.get()
        guard let context = library.contextNew(library.clientMethod()) else {
            throw EtcdError.tls(library.lastError("cannot create a TLS context"))
        }
        self.context = context
        library.contextSetVerify(context, OpenSSLLibrary.verifyPeer, nil)
        if let file = settings.certificateAuthorityFile {
            guard library.contextLoadVerifyLocations(context, file, nil) == 1 else {
                throw EtcdError.tls(library.lastError("cannot read the CA file \(file)"))
            }
        } else {
            _ = library.contextSetDefaultVerifyPaths(context)
        }
        switch (settings.clientCertificateFile, settings.clientKeyFile) {
        case (nil, nil):
            break
        case let (certificate?, key?):
            guard library.contextUseCertificateChainFile(context, certificate) == 1 else {
                throw EtcdError.tls(library.lastError("cannot read the client certificate \(certificate)"))
            }
            guard library.contextUsePrivateKeyFile(context, key, OpenSSLLibrary.fileTypePEM) == 1,
                  library.contextCheckPrivateKey(context) == 1 else {
                throw EtcdError.tls(library.lastError("cannot use the client key \(key) with the client certificate"))
            }
        default:
            throw EtcdError.tls("a client certificate needs both clientCertificateFile and clientKeyFile")
        }
    }

    deinit { library.contextFree(context) }

    /// A TLS session on a connected socket, set to check that the certificate names `host`
    /// (as an IP address or a DNS name); not yet shaken hands.
    func session(descriptor: Int32, host: String) throws -> EtcdTLSSession {
        guard let ssl = library.new(context) else { throw EtcdError.tls(library.lastError("cannot create a TLS session")) }
        let session = EtcdTLSSession(library: library, ssl: ssl)
        guard library.setFD(ssl, descriptor) == 1 else { throw EtcdError.tls(library.lastError("cannot attach the socket")) }
        if Self.isIPAddress(host) {
            guard library.parametersSetIP(library.parameters(ssl), host) == 1 else {
                throw EtcdError.tls("cannot check the certificate against \(host)")
            }
        } else {
            var name = Array(host.utf8CString)
            _ = library.control(ssl, OpenSSLLibrary.controlSetTLSExtHostName, OpenSSLLibrary.nameTypeHostName, &name)
            guard library.setHost(ssl, host) == 1 else { throw EtcdError.tls("cannot check the certificate against \(host)") }
        }
        return session
    }

    private static func isIPAddress(_ host: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, host, &buffer) == 1 || inet_pton(AF_INET6, host, &buffer) == 1
    }
}

/// One connection's SSL object; used by one thread at a time (the exchange's).
final class EtcdTLSSession {
    enum Outcome {
        case done(Int)
        case wantRead
        case wantWrite
        case closed
        /// A TLS error; `refused` when the member sent an alert (it rejected our certificate or
        /// none was given): final, unlike a connection cut short, which is worth another member.
        case failed(String, refused: Bool)
    }

    private let library: OpenSSLLibrary
    private let ssl: OpaquePointer

    init(library: OpenSSLLibrary, ssl: OpaquePointer) {
        self.library = library
        self.ssl = ssl
    }

    deinit { library.free(ssl) }

    func handshake() -> Outcome {
        library.errorClear()
        let result = library.connect(ssl)
        if result == 1 { return .done(0) }
        let progress = outcome(result)
        if case .failed = progress, library.verifyResult(ssl) != 0 {
            let verify = library.verifyResult(ssl)
            let reason = library.verifyErrorString(verify).map { String(cString: $0) } ?? "code \(verify)"
            return .failed("the member's certificate was refused: \(reason)", refused: true)
        }
        return progress
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Outcome {
        library.errorClear()
        return outcome(library.read(ssl, buffer.baseAddress, Int32(buffer.count)))
    }

    func write(_ buffer: UnsafeRawBufferPointer) -> Outcome {
        library.errorClear()
        return outcome(library.write(ssl, buffer.baseAddress, Int32(buffer.count)))
    }

    private func outcome(_ result: Int32) -> Outcome {
        if result > 0 { return .done(Int(result)) }
        switch library.getError(ssl, result) {
        case OpenSSLLibrary.errorWantRead: return .wantRead
        case OpenSSLLibrary.errorWantWrite: return .wantWrite
        // The HTTP/1.0 body ends with the connection, with or without TLS's close_notify.
        case OpenSSLLibrary.errorZeroReturn, OpenSSLLibrary.errorSyscall: return .closed
        default:
            // OpenSSL numbers the alerts a peer sends as reasons 1000 and up (SSL_AD_REASON_OFFSET).
            let code = library.errorPeek()
            let fromPeerAlert = (1000..<1256).contains(code & 0xFFF)
            return .failed(library.lastError("TLS error"), refused: fromPeerAlert)
        }
    }
}
