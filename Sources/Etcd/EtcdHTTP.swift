import Foundation
import Synchronization

/// One JSON POST to one member: no retry, no failover (that is EtcdClient+Calls.swift).
/// Cancelling the calling task closes the connection, so a cancelled caller never waits for a
/// hung member.
///
/// HTTP/1.0 over a socket, with TLS for `https://` (see EtcdSocket for why not URLSession): one
/// connection per request, the body ends where the connection does.
struct EtcdHTTP: Sendable {
    /// The longest a request may take, connection included.
    let timeout: TimeInterval
    /// For `https://` endpoints.
    let tls: EtcdTLSContext?
    /// The largest answer body a call accepts (``defaultMaximumBodySize`` unless the client says).
    var maximumBodySize = Self.defaultMaximumBodySize

    /// Blocking exchanges run here, off the cooperative pool.
    static let queue = DispatchQueue(label: "Etcd.EtcdHTTP", attributes: .concurrent)

    /// The largest answer body a call accepts by default, held in memory whole: 64 MiB. A pull
    /// reads records in pages that shrink until an answer fits (``EtcdClient/rangeAll(prefix:minModRevision:keysOnly:)``);
    /// without a bound an endpoint (plain http:// can be answered by anyone on the path) could
    /// send bytes until memory runs out.
    static let defaultMaximumBodySize = 64 << 20

    /// The HTTP status and body, or `EtcdTransportError` (refused, reset, timed out).
    func post(_ url: URL, body: Data, token: String?) async throws -> (status: Int, body: Data) {
        let exchange = try EtcdExchange(url: url, body: body, token: token, tls: tls)
        let deadline = Date().addingTimeInterval(timeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Self.queue.async {
                    let received = Mutex(Data())
                    do {
                        let status = try exchange.run(headDeadline: deadline, bodyDeadline: deadline,
                                                      bodyLimit: maximumBodySize) { chunk in
                            received.withLock { $0.append(chunk) }
                        }
                        continuation.resume(returning: (status, received.withLock { $0 }))
                    } catch {
                        continuation.resume(throwing: error)
                    }
                }
            }
        } onCancel: {
            exchange.cancel()
        }
    }
}

/// A transport failure: nothing usable came back from the member.
struct EtcdTransportError: Error, CustomStringConvertible {
    var description: String
}

/// One request and its response on a fresh connection; `cancel()` from any thread.
final class EtcdExchange: Sendable {
    private let host: String
    private let port: Int
    private let request: Data
    private let tls: EtcdTLSContext?
    private let state = Mutex<(socket: EtcdSocket?, cancelled: Bool)>((nil, false))

    init(url: URL, body: Data, token: String?, tls: EtcdTLSContext?, headers: [String: String] = [:]) throws {
        guard let host = url.host, url.scheme == "http" || (url.scheme == "https" && tls != nil) else {
            throw EtcdError.invalidEndpoint("\(url.scheme ?? "no scheme")://\(url.host ?? "")")
        }
        self.host = host
        self.tls = url.scheme == "https" ? tls : nil
        port = url.port ?? 2379
        var head = "POST \(url.path(percentEncoded: true)) HTTP/1.0\r\nHost: \(host):\(port)\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        // etcd's gateway takes the bare token, without a "Bearer" scheme.
        if let token { head += "Authorization: \(token)\r\n" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        request = Data((head + "\r\n").utf8) + body
    }

    func cancel() {
        let socket = state.withLock { state in
            state.cancelled = true
            return state.socket
        }
        socket?.cancel()
    }

    /// Sends the request; returns the status once the whole body went to `onBody` (in chunks as
    /// they arrive; what `onBody` throws ends the exchange). The status line and headers must
    /// come by `headDeadline`, the body by `bodyDeadline` (nil: a stream, no limit). A body
    /// over `bodyLimit` bytes is refused (`EtcdError.responseTooLarge`), before it is read
    /// when its Content-Length says so.
    func run(headDeadline: Date, bodyDeadline: Date?, bodyLimit: Int? = nil, onBody: (Data) throws -> Void) throws -> Int {
        try EtcdNoSIGPIPE.run {
            try exchange(headDeadline: headDeadline, bodyDeadline: bodyDeadline, bodyLimit: bodyLimit, onBody: onBody)
        }
    }

    private func exchange(headDeadline: Date, bodyDeadline: Date?, bodyLimit: Int?, onBody: (Data) throws -> Void) throws -> Int {
        do {
            let socket = try EtcdSocket(host: host, port: port, deadline: headDeadline, tls: tls)
            let cancelled = state.withLock { state in
                state.socket = socket
                return state.cancelled
            }
            if cancelled { throw EtcdSocketError.cancelled }
            try socket.send(request, deadline: headDeadline)
            var pending = Data()
            var head: EtcdResponseHead?
            while head == nil {
                let chunk = try socket.receive(deadline: headDeadline)
                guard !chunk.isEmpty else { throw EtcdTransportError(description: "connection closed before a response") }
                pending.append(chunk)
                head = try EtcdResponseHead.parse(&pending)
            }
            var body = EtcdBodyCounter(length: head!.contentLength, limit: bodyLimit)
            try body.check()
            if !pending.isEmpty { try onBody(try body.take(pending)) }
            while !body.isComplete {
                let chunk = try socket.receive(deadline: bodyDeadline)
                if chunk.isEmpty {
                    // Without Content-Length the end of the connection is the end of the body.
                    if body.length == nil { break }
                    throw EtcdTransportError(description: "connection closed in the middle of a response")
                }
                try onBody(try body.take(chunk))
            }
            return head!.status
        } catch EtcdSocketError.cancelled {
            throw CancellationError()
        } catch EtcdSocketError.timedOut {
            throw EtcdTransportError(description: "timed out")
        } catch let EtcdSocketError.failed(reason) {
            throw EtcdTransportError(description: reason)
        }
    }
}

/// The status line and the one header the exchange needs.
struct EtcdResponseHead {
    var status: Int
    var contentLength: Int?

    /// Removes and parses the head from `buffer` once it holds all of it; nil until then.
    static func parse(_ buffer: inout Data) throws -> EtcdResponseHead? {
        guard let end = buffer.firstRange(of: Data("\r\n\r\n".utf8)) else {
            if buffer.count > 65_536 { throw EtcdTransportError(description: "response head too long") }
            return nil
        }
        let text = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
        buffer = Data(buffer[end.upperBound...])
        let lines = text.split(separator: "\r\n")
        let statusLine = lines.first?.split(separator: " ") ?? []
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/"), let status = Int(statusLine[1]) else {
            throw EtcdTransportError(description: "not an HTTP response")
        }
        var contentLength: Int?
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                // Digits only: Int() takes a sign, and a negative length broke the arithmetic
                // of what remains (Int.min overflowed and crashed the process).
                let text = parts[1].trimmingCharacters(in: .whitespaces)
                guard !text.isEmpty, text.allSatisfy(\.isASCIIDigit), let length = Int(text) else {
                    throw EtcdTransportError(description: "invalid Content-Length")
                }
                contentLength = length
            }
        }
        return EtcdResponseHead(status: status, contentLength: contentLength)
    }
}

private extension Character {
    /// 0 to 9 only (isNumber alone also takes other scripts' digits and fractions).
    var isASCIIDigit: Bool { isASCII && isNumber }
}
