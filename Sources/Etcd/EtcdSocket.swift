import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A TCP connection, with TLS when asked, deadlines and cancellation, for EtcdHTTP. Blocking:
/// used from a thread of EtcdHTTP's own queue, never from the cooperative pool.
///
/// Why not URLSession: FoundationNetworking (swift-corelibs-foundation) aborts the process with
/// "Transfer completed, but there's no response" when a response carries HTTP trailers, and
/// etcd 3.4's gateway sends a `Grpc-Trailer-Content-Type` trailer with every error (wrong
/// password, no leader, compacted revision). Nor can it trust a CA file on Linux
/// (`URLSessionCertificateAuthorityInfoFile` is read on Android only) or present a client
/// certificate. Requests are HTTP/1.0, so the gateway sends no chunked encoding and no
/// trailers at all.
final class EtcdSocket: @unchecked Sendable {
    // @unchecked: `session` and `receiveBuffer` are used only by the thread running the
    // exchange; `cancel()`, the one call from elsewhere, touches only the descriptor (shutdown)
    // and the atomic flag.
    private let descriptor: Int32
    private let cancelled = Atomic<Bool>(false)
    private let session: EtcdTLSSession?
    /// One buffer for every receive of the connection (a watch receives for hours).
    private var receiveBuffer = [UInt8]()

    /// Connects to `host:port` (any address getaddrinfo gives, in order) before `deadline`, and
    /// shakes hands with `tls` when given.
    init(host: String, port: Int, deadline: Date, tls: EtcdTLSContext?) throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw EtcdSocketError.failed("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address for \(host)"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.pointee.ai_protocol)
            guard fd >= 0 else { lastError = Self.errnoText("socket"); continue }
            do {
                try Self.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen, deadline: deadline)
                var one: Int32 = 1
                _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                session = try tls.map { try Self.handshake($0.session(descriptor: fd, host: host), fd, deadline: deadline) }
                descriptor = fd
                return
            } catch let EtcdSocketError.failed(reason) {
                lastError = reason
                close(fd)
            } catch {
                close(fd)
                throw error
            }
        }
        throw EtcdSocketError.failed(lastError)
    }

    deinit { close(descriptor) }

    /// Wakes any blocked send or receive, which then throw `EtcdSocketError.cancelled`.
    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Sends all of `data` before `deadline`.
    func send(_ data: Data, deadline: Date) throws {
        var offset = 0
        while let session, offset < data.count {
            if cancelled.load(ordering: .sequentiallyConsistent) { throw EtcdSocketError.cancelled }
            switch data.withUnsafeBytes({ session.write(UnsafeRawBufferPointer(rebasing: $0[offset...])) }) {
            case let .done(count): offset += count
            case .wantRead: try wait(for: Int16(POLLIN), deadline: deadline)
            case .wantWrite: try wait(for: Int16(POLLOUT), deadline: deadline)
            case .closed: throw checkCancelled("TLS connection closed while sending")
            case let .failed(reason, refused): if refused { throw EtcdError.tls(reason) } else { throw checkCancelled(reason) }
            }
        }
        while offset < data.count {
            try wait(for: Int16(POLLOUT), deadline: deadline)
            let sent = data.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw checkCancelled(Self.errnoText("send"))
            }
            offset += sent
        }
    }

    /// The next bytes (empty at the end of the stream), waiting until `deadline` (nil: forever).
    func receive(deadline: Date?) throws -> Data {
        if receiveBuffer.isEmpty { receiveBuffer = [UInt8](repeating: 0, count: 65_536) }
        return try receive(into: &receiveBuffer, deadline: deadline)
    }

    private func receive(into buffer: inout [UInt8], deadline: Date?) throws -> Data {
        // TLS may hold decrypted bytes while the socket has none: read first, wait when told to.
        while let session {
            if cancelled.load(ordering: .sequentiallyConsistent) { throw EtcdSocketError.cancelled }
            switch buffer.withUnsafeMutableBytes({ session.read(into: $0) }) {
            case let .done(count): return Data(buffer[0..<count])
            case .wantRead: try wait(for: Int16(POLLIN), deadline: deadline)
            case .wantWrite: try wait(for: Int16(POLLOUT), deadline: deadline)
            case .closed: if cancelled.load(ordering: .sequentiallyConsistent) { throw EtcdSocketError.cancelled } else { return Data() }
            case let .failed(reason, refused): if refused { throw EtcdError.tls(reason) } else { throw checkCancelled(reason) }
            }
        }
        while true {
            try wait(for: Int16(POLLIN), deadline: deadline)
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw checkCancelled(Self.errnoText("recv"))
            }
            if cancelled.load(ordering: .sequentiallyConsistent) { throw EtcdSocketError.cancelled }
            return Data(buffer[0..<count])
        }
    }

    private func wait(for events: Int16, deadline: Date?) throws {
        if cancelled.load(ordering: .sequentiallyConsistent) { throw EtcdSocketError.cancelled }
        try Self.wait(descriptor, for: events, deadline: deadline)
    }

    /// Polls until `events` or the deadline; a shut-down socket reports ready (and then fails).
    private static func wait(_ descriptor: Int32, for events: Int16, deadline: Date?) throws {
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else { throw EtcdSocketError.timedOut }
                timeout = Int32(min(remaining * 1000, 60_000).rounded(.up))
            }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, timeout)
            if ready < 0 && errno != EINTR { throw EtcdSocketError.failed(Self.errnoText("poll")) }
            if ready > 0 { return }
        }
    }

    /// Runs the TLS handshake to its end before `deadline`. A refused certificate is final
    /// (`EtcdError.tls`); a connection lost meanwhile is a transport failure, worth another member.
    private static func handshake(_ session: EtcdTLSSession, _ descriptor: Int32, deadline: Date) throws -> EtcdTLSSession {
        while true {
            switch session.handshake() {
            case .done: return session
            case .wantRead: try wait(descriptor, for: Int16(POLLIN), deadline: deadline)
            case .wantWrite: try wait(descriptor, for: Int16(POLLOUT), deadline: deadline)
            case .closed: throw EtcdSocketError.failed("TLS handshake: connection closed")
            case let .failed(reason, refused):
                if refused { throw EtcdError.tls(reason) }
                throw EtcdSocketError.failed("TLS handshake: \(reason)")
            }
        }
    }

    private func checkCancelled(_ reason: String) -> EtcdSocketError {
        cancelled.load(ordering: .sequentiallyConsistent) ? .cancelled : .failed(reason)
    }

    private static func connect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t,
                                deadline: Date) throws {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        if Glibc.connect(fd, address, length) != 0 {
            guard errno == EINPROGRESS else { throw EtcdSocketError.failed(errnoText("connect")) }
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000).rounded(.up))
            guard poll(&entry, 1, remaining) > 0 else { throw EtcdSocketError.failed("connect: timed out") }
            var error: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
            guard error == 0 else { throw EtcdSocketError.failed("connect: \(String(cString: strerror(error)))") }
        }
    }

    static func errnoText(_ call: String) -> String { "\(call): \(String(cString: strerror(errno)))" }
}

/// How a socket operation failed; EtcdHTTP turns these into transport failures.
enum EtcdSocketError: Error {
    case failed(String)
    case timedOut
    case cancelled
}
