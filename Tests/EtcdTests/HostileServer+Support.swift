import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Etcd

/// A real TCP listener on 127.0.0.1 (a port the kernel picks) that answers every connection
/// with crafted bytes: the stand-in for a broken or compromised etcd member. Each connection
/// runs `respond` on its own thread, so a server that drips bytes forever blocks nobody; such
/// loops end when the client hangs up (a write then fails).
final class HostileServer: Sendable {
    let url: URL
    private let listener: Int32

    /// - Parameter respond: the connection and its index (0 for the first accepted).
    init(_ respond: @escaping @Sendable (HostileConnection, Int) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard fd >= 0, bound else { throw EtcdTransportError(description: "cannot listen: \(EtcdSocket.errnoText("bind"))") }
        listener = fd
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))")!
        let thread = Thread {
            var index = 0
            while true {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else {
                    if errno == EINTR { continue }
                    // The listener was shut down: only now is its descriptor closed, so its
                    // number cannot be reused by the next test's listener while this loop
                    // could still accept on it (and answer with this server's bytes).
                    Glibc.close(fd)
                    return
                }
                let handler = Thread { [index] in
                    let peer = HostileConnection(descriptor: connection)
                    respond(peer, index)
                    peer.close()
                }
                handler.start()
                index += 1
            }
        }
        thread.start()
    }

    /// Stops accepting (connections under way run on until the client hangs up). Tests
    /// call it at their end, which also keeps the server alive until then. The accept loop
    /// closes the listener once its `accept` fails.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }
}

/// A flag a server thread raises and a test reads.
final class HostileFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    func raise() { raised.store(true, ordering: .sequentiallyConsistent) }
    var isRaised: Bool { raised.load(ordering: .sequentiallyConsistent) }
}

/// One accepted connection of a HostileServer.
final class HostileConnection: @unchecked Sendable {
    // @unchecked: used by its one handler thread only.
    private let descriptor: Int32
    private var isClosed = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Reads the request's head and its Content-Length body (so the client is done sending);
    /// returns what came.
    @discardableResult
    func readRequest() -> String {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return String(decoding: received, as: UTF8.self) }
            received += buffer[0..<count]
            let text = String(decoding: received, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n") else { continue }
            let head = text[..<end.lowerBound].lowercased()
            let length = head.split(separator: "\r\n").compactMap { line -> Int? in
                line.hasPrefix("content-length:") ? Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) : nil
            }.first ?? 0
            if text.utf8.distance(from: end.upperBound, to: text.endIndex) >= length { return text }
        }
    }

    /// Sends all of `bytes`; false once the client has gone.
    @discardableResult
    func write(_ bytes: some Collection<UInt8>) -> Bool {
        let data = [UInt8](bytes)
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Sends `bytes` again and again (a pause between sends when given) until the client goes.
    func writeForever(_ bytes: [UInt8], pause: Duration? = nil) {
        while write(bytes) {
            if let pause { Thread.sleep(forTimeInterval: pause.seconds) }
        }
    }

    /// Blocks until the client closes its end (what a server that never answers does).
    func waitForHangUp() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 || (count < 0 && errno != EINTR) { return }
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(descriptor)
    }
}

extension EtcdTests {
    /// A client of one hostile server, quick to give up: a broken member must cost a test
    /// seconds, not the defaults' 15. The request timeout leaves a loaded machine room for a
    /// prompt crafted answer, so that a failure is the answer's, not a timeout's.
    static func hostileClient(_ server: HostileServer) throws -> EtcdClient {
        try EtcdClient(endpoints: [server.url], requestTimeout: 2, retryWindow: 1)
    }

    /// The error `operation` ends with, or nil (with an issue recorded) when it returned, or
    /// did not end within `deadline`: a generous bound that turns a hang into a failure, not a
    /// speed requirement. A hung operation is left running rather than awaited.
    static func hostileError(within deadline: Duration = .seconds(30),
                             _ operation: @escaping @Sendable () async throws -> Void) async -> (any Error)? {
        enum Outcome: Sendable { case returned, failed(any Error), hung }
        let settled = Mutex(false)
        let outcome: Outcome = await withCheckedContinuation { continuation in
            let finish: @Sendable (Outcome) -> Void = { outcome in
                let first = settled.withLock { settled in
                    defer { settled = true }
                    return !settled
                }
                if first { continuation.resume(returning: outcome) }
            }
            let timer = Task {
                try? await Task.sleep(for: deadline)
                finish(.hung)
            }
            let work = Task {
                do { try await operation(); finish(.returned) } catch { finish(.failed(error)) }
                timer.cancel()
            }
            // A hung operation is cancelled once the deadline passed (it may not listen).
            Task {
                _ = await timer.result
                work.cancel()
            }
        }
        switch outcome {
        case .returned: Issue.record("the operation succeeded against a hostile server"); return nil
        case .hung: Issue.record("the operation did not end within \(deadline)"); return nil
        case let .failed(error): return error
        }
    }

    /// The first error a watch stream ends with (a batch delivered is recorded as an issue).
    static func watchError(_ client: EtcdClient, within deadline: Duration = .seconds(30)) async -> (any Error)? {
        await hostileError(within: deadline) {
            for try await batch in client.watch(key: Array("k".utf8)) {
                Issue.record("a hostile watch delivered a batch: \(batch.revision)")
            }
        }
    }
}

/// The head of a 200 answer with a Content-Length.
func httpOK(_ body: String) -> String {
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
}
