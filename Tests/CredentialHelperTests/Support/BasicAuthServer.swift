import Foundation
import Glibc
import Synchronization

/// A tiny HTTP server on 127.0.0.1 that serves one repository over git's "dumb" HTTP
/// protocol behind Basic authentication, so that a real `git ls-remote` goes through git's
/// whole credential flow: 401, fill (helper `get`, then askpass), retry, approve (helper
/// `store`) or reject (helper `erase`). It also answers a registry's version check
/// (`GET /v2/`) behind the same login, so a real `docker login` stores through docker's
/// credential helper.
final class BasicAuthServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let state = Mutex(State())

    private struct State {
        var expected = ""
        var requests = 0
        var unauthorized = 0
    }

    /// The commit the repository's one branch points at.
    static let commit = "0123456789abcdef0123456789abcdef01234567"

    /// Starts serving; `username:password` is the only accepted login until changed.
    init(username: String, password: String) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        listener = descriptor
        port = UInt16(bigEndian: address.sin_port)
        setLogin(username: username, password: password)
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(descriptor, nil, nil)
                if connection < 0 {
                    if errno == EINTR { continue }
                    return   // the listener was shut down
                }
                serve(connection)
                close(connection)
            }
        }
    }

    /// Stops accepting connections; the serving thread ends.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    var url: String { "http://127.0.0.1:\(port)/repo.git" }

    /// Accepts only this login from now on.
    func setLogin(username: String, password: String) {
        let expected = "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        state.withLock { $0.expected = expected }
    }

    /// How many requests were refused with 401.
    var unauthorizedCount: Int { state.withLock { $0.unauthorized } }

    private func serve(_ connection: Int32) {
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.ends(with: [0x0D, 0x0A, 0x0D, 0x0A]) && request.count < 65536 {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0 else { return }
            request.append(contentsOf: buffer[..<count])
            // docker tries https first: close at once on a TLS handshake record, or it waits
            // its 10 s handshake timeout before falling back to plain HTTP.
            if request.first == 0x16 { return }
        }
        let lines = String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n")
        let target = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let authorization = lines.first { $0.lowercased().hasPrefix("authorization:") }
            .map { String($0.dropFirst("authorization:".count)).trimmingCharacters(in: .whitespaces) }
        let authorized = state.withLock { state in
            state.requests += 1
            let ok = authorization == state.expected
            if !ok { state.unauthorized += 1 }
            return ok
        }
        let path = target.split(separator: "?").first.map(String.init) ?? target
        let response: String
        if !authorized {
            response = Self.response("401 Unauthorized", headers: ["WWW-Authenticate: Basic realm=\"test\""], body: "")
        } else if path == "/repo.git/info/refs" {
            response = Self.response("200 OK", headers: ["Content-Type: text/plain"], body: "\(Self.commit)\trefs/heads/main\n")
        } else if path == "/v2/" {
            response = Self.response("200 OK", headers: ["Content-Type: application/json"], body: "{}")
        } else if path == "/repo.git/HEAD" {
            response = Self.response("200 OK", headers: ["Content-Type: text/plain"], body: "ref: refs/heads/main\n")
        } else {
            response = Self.response("404 Not Found", headers: [], body: "")
        }
        var bytes = Array(response.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(connection, $0.baseAddress! + written, $0.count - written) }
            guard count > 0 else { break }
            written += count
        }
        bytes.removeAll()
    }

    private static func response(_ status: String, headers: [String], body: String) -> String {
        (["HTTP/1.1 \(status)", "Content-Length: \(body.utf8.count)", "Connection: close"] + headers).joined(separator: "\r\n")
            + "\r\n\r\n" + body
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
