/// Everything that can go wrong talking to etcd, with messages that say what happened and what
/// to do. No case ever carries a key's or a value's bytes: an error may end up in a log.
///
/// ```swift
/// do { _ = try await client.put(key: Array("k".utf8), value: Array("v".utf8)) }
/// catch EtcdError.unreachable(let endpoints, let reason) { print("etcd down: \(endpoints) \(reason)") }
/// ```
package enum EtcdError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Every endpoint failed (connection refused or reset, timeout, HTTP 503) until the retry
    /// window closed. `lastReason` is the last endpoint's failure.
    case unreachable(endpoints: [String], lastReason: String)
    /// etcd answered and refused the request: the gateway's gRPC `code`, its `message` and the
    /// HTTP status.
    case rejected(httpStatus: Int, code: Int, message: String)
    /// The requested revision (a read at a past revision, or a watch's start) was compacted.
    /// For a watch, `revision` is etcd's `compact_revision`, the oldest revision still
    /// available; for a read it is 0, since the gateway's error does not say.
    case compacted(revision: Int64)
    /// The user name or password was refused by `/v3/auth/authenticate`.
    case authenticationFailed(message: String)
    /// etcd's answer could not be read as the expected JSON.
    case malformedResponse(String)
    /// An answer was larger than the client reads into memory (`maximumResponseBytes`); a
    /// range asking for fewer keys at once may fit (``EtcdClient/rangeAll(prefix:minModRevision:keysOnly:)`` does).
    case responseTooLarge(limit: Int)
    /// An endpoint the client cannot use (not `http://host[:port]` or `https://host[:port]`).
    case invalidEndpoint(String)
    /// TLS could not be set up or the member's certificate was refused (the reason from OpenSSL).
    case tls(String)

    package var description: String {
        switch self {
        case let .unreachable(endpoints, lastReason):
            return "no etcd endpoint answered (\(endpoints.joined(separator: ", "))); last failure: \(lastReason). "
                + "Check that the members run and that the endpoints and ports are right."
        case let .rejected(status, code, message):
            return "etcd refused the request (HTTP \(status), gRPC code \(code)): \(message)"
        case let .compacted(revision):
            let oldest = revision > 0 ? "; the oldest available revision is \(revision)" : ""
            return "the requested revision was compacted\(oldest). "
                + "Read everything again (full resync) and continue from the current revision."
        case let .authenticationFailed(message):
            return "etcd refused the user name or password: \(message). Check the etcd credentials."
        case let .malformedResponse(what):
            return "etcd's answer could not be read: \(what). Is the endpoint an etcd 3.4+ client URL?"
        case let .responseTooLarge(limit):
            return "etcd's answer is larger than \(limit >> 20) MiB, the most one call reads into memory. Ask for fewer keys at once."
        case let .invalidEndpoint(endpoint):
            return "cannot use the etcd endpoint \(endpoint). Give client URLs as http://host:port or https://host:port."
        case let .tls(reason):
            return "TLS with etcd failed: \(reason). Check the CA file, the client certificate and key, "
                + "and that the member's certificate names the endpoint's host."
        }
    }

    /// etcd's gRPC code for "unavailable" (no leader, leader changed, request timed out): the
    /// request may succeed on another member or after an election.
    static let unavailableCode = 14
    /// etcd's gRPC code for "unauthenticated" (invalid or expired token).
    static let unauthenticatedCode = 16
}
