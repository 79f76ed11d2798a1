import Foundation
import Synchronization

/// A client of an etcd 3.4+ cluster through its JSON gRPC gateway (`POST /v3/...`).
///
/// Requests go to the endpoint that last worked; on a connection error, a timeout or an HTTP
/// 503 (no leader, leader changed) the client tries the next endpoint, and goes round again
/// with a short pause until `retryWindow` has passed. A request that failed in transit may
/// have been applied: callers that must know (compare-and-swap) read back after an
/// `EtcdError.unreachable` instead of assuming nothing happened.
///
/// Endpoints are `http://` or `https://`; for TLS the client uses the system's OpenSSL (loaded
/// at run time, see OpenSSLLibrary.swift) with the CA file and client certificate of `tls`.
///
/// ```swift
/// let client = try EtcdClient(endpoints: [URL(string: "http://10.0.0.1:2379")!,
///                                     URL(string: "http://10.0.0.2:2379")!],
///                         credentials: EtcdCredentials(user: "secstore", password: password))
/// let revision = try await client.put(key: Array("k".utf8), value: Array("v".utf8))
/// ```
package final class EtcdClient: Sendable {
    /// The members' client URLs, in the order they are tried.
    package let endpoints: [URL]
    let credentials: EtcdCredentials?
    let requestTimeout: TimeInterval
    let retryWindow: TimeInterval
    let http: EtcdHTTP

    struct State {
        /// The index of the endpoint that last answered; requests start there.
        var preferred = 0
        /// The auth token, once authenticated.
        var token: String?
        /// The authentication under way, which concurrent calls wait for.
        var authentication: Task<String, any Error>?
    }
    let state = Mutex(State())

    /// - Parameters:
    ///   - endpoints: client URLs of the members (`http://host:2379` or `https://…`); at least one.
    ///   - credentials: etcd user and password when the cluster has auth enabled.
    ///   - tls: the CA file and client certificate for `https://` endpoints (nil: the system's
    ///     CAs, no client certificate).
    ///   - requestTimeout: the longest one request to one member may take (idle time on a watch
    ///     stream is not limited by it).
    ///   - retryWindow: how long a request keeps going round the endpoints before it fails with
    ///     `EtcdError.unreachable`; long enough to span a leader election.
    ///   - maximumResponseBytes: the largest answer a call reads into memory (64 MiB); a larger
    ///     one is `EtcdError.responseTooLarge`.
    /// - Throws: `EtcdError.invalidEndpoint` for no endpoint or one that is not
    ///   `http(s)://host[:port]`; `EtcdError.tls` when the TLS files cannot be used.
    package init(endpoints: [URL], credentials: EtcdCredentials? = nil, tls: EtcdTLS? = nil,
                 requestTimeout: TimeInterval = 5, retryWindow: TimeInterval = 15,
                 maximumResponseBytes: Int = EtcdHTTP.defaultMaximumBodySize) throws {
        guard !endpoints.isEmpty else { throw EtcdError.invalidEndpoint("(none given)") }
        for endpoint in endpoints where !["http", "https"].contains(endpoint.scheme ?? "") || endpoint.host == nil {
            throw EtcdError.invalidEndpoint("\(endpoint.scheme ?? "")://\(endpoint.host ?? "")")
        }
        self.endpoints = endpoints
        self.credentials = credentials
        self.requestTimeout = requestTimeout
        self.retryWindow = retryWindow
        let secure = tls != nil || endpoints.contains { $0.scheme == "https" }
        http = EtcdHTTP(timeout: requestTimeout, tls: secure ? try EtcdTLSContext(tls ?? EtcdTLS()) : nil,
                        maximumBodySize: maximumResponseBytes)
    }

    /// The endpoints in the order a request tries them: the one that last worked first.
    func endpointOrder() -> [Int] {
        let first = state.withLock { $0.preferred }
        return (0..<endpoints.count).map { (first + $0) % endpoints.count }
    }

    func markWorking(_ index: Int) {
        state.withLock { $0.preferred = index }
    }
}
