import Foundation

/// What an etcd answer other than success says, read in one place for every call (the KV
/// calls, authentication, watch creation): the gRPC code and message etcd gave, and what they
/// mean for the caller — try another member, authenticate again, or give up.
///
/// ```swift
/// let refusal = EtcdRefusal(status: 503, body: data)
/// if refusal.isUnavailable { /* try the next member */ }
/// ```
struct EtcdRefusal {
    let status: Int
    let code: Int
    let message: String

    init(status: Int, code: Int, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// A unary call's refusal: the gateway's JSON error body, or just the HTTP status.
    init(status: Int, body: Data) {
        let wire = try? JSONDecoder().decode(WireGatewayError.self, from: body)
        self.init(status: status, code: wire?.code ?? -1,
                  message: wire?.message ?? wire?.error ?? "HTTP \(status) without an etcd error")
    }

    /// The member cannot serve now (HTTP 503, or gRPC Unavailable: it has no leader); another
    /// may. The same test for watch streams, whose errors carry the gateway's HTTP code too
    /// (the gateway sends 503 only with gRPC Unavailable).
    var isUnavailable: Bool { status == 503 || code == EtcdError.unavailableCode }
    /// The auth token was refused (expired or revoked): authenticate again.
    var isUnauthenticated: Bool { code == EtcdError.unauthenticatedCode }
    /// A read at a compacted revision (the gateway does not say which revision remains).
    var isCompactedRead: Bool { message.contains("required revision has been compacted") }

    /// The error that ends the call.
    var error: EtcdError { .rejected(httpStatus: status, code: code, message: message) }
}
