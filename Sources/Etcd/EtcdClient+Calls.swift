import Foundation

extension EtcdClient {
    /// What one attempt against one member came to.
    enum Attempt {
        case answered(Data)
        /// Worth trying another member (transport failure, 503): the reason, for the error.
        case unavailable(String)
        /// The token (the one given) was refused: authenticate again and retry once.
        case tokenRefused(String?)
    }

    /// What one member made of a step of ``withFailover(_:)``.
    enum FailoverStep<Value> {
        case done(Value)
        /// Try the next member; the reason goes into `unreachable` if none answers.
        case tryNext(String)
    }

    /// POSTs `body` to `path` with failover and the auth token, and decodes the answer.
    func call<Response: Decodable>(_ path: String, _ body: [String: Any], as type: Response.Type) async throws -> Response {
        let data = try await call(path, Wire.encode(body))
        return try Wire.decode(type, data)
    }

    /// POSTs `body` to `path` with failover; a refused token is replaced once per call.
    func call(_ path: String, _ body: Data) async throws -> Data {
        var mayReauthenticate = true
        return try await withFailover { index in
            try await answer(index, path, body, mayReauthenticate: &mayReauthenticate)
        }
    }

    /// The failover loop, for calls and watches alike: every endpoint from the preferred one,
    /// then again after a pause (``EtcdBackoff``), until `retryWindow` closes. The member that
    /// answers becomes the preferred one.
    func withFailover<Value>(_ step: (Int) async throws -> FailoverStep<Value>) async throws -> Value {
        let deadline = Date().addingTimeInterval(retryWindow)
        var backoff = EtcdBackoff()
        var lastReason = "no attempt made"
        while true {
            for index in endpointOrder() {
                try Task.checkCancellation()
                switch try await step(index) {
                case let .done(value):
                    markWorking(index)
                    return value
                case let .tryNext(reason):
                    lastReason = "\(endpoints[index].absoluteString): \(reason)"
                }
            }
            guard Date().addingTimeInterval(backoff.upcoming.seconds) < deadline else {
                throw EtcdError.unreachable(endpoints: endpoints.map(\.absoluteString), lastReason: lastReason)
            }
            try await Task.sleep(for: backoff.next())
        }
    }

    /// One request to one member; when its token is refused and `mayReauthenticate` still
    /// allows it (it is then used up), once more with a fresh token. A fresh token refused
    /// too is `authenticationFailed`.
    func answer(_ index: Int, _ path: String, _ body: Data, mayReauthenticate: inout Bool) async throws -> FailoverStep<Data> {
        var outcome = try await attempt(index, path, body)
        if case let .tokenRefused(refused) = outcome, mayReauthenticate {
            mayReauthenticate = false
            dropToken(refused)
            outcome = try await attempt(index, path, body)
        }
        switch outcome {
        case let .answered(data): return .done(data)
        case let .unavailable(reason): return .tryNext(reason)
        case .tokenRefused: throw EtcdError.authenticationFailed(message: "etcd refused a fresh auth token")
        }
    }

    /// One request to one member, with a token when the client has credentials.
    func attempt(_ index: Int, _ path: String, _ body: Data) async throws -> Attempt {
        let url = endpoints[index].appending(path: path)
        let token: String?
        do {
            token = try await tokenIfNeeded(at: index)
        } catch let error as EtcdError {
            if case let .unreachable(_, reason) = error { return .unavailable(reason) }
            throw error
        }
        let status: Int, data: Data
        do {
            (status, data) = try await http.post(url, body: body, token: token)
        } catch let error as EtcdTransportError {
            return .unavailable(error.description)
        }
        if status == 200 { return .answered(data) }
        let refusal = EtcdRefusal(status: status, body: data)
        if refusal.isUnavailable { return .unavailable(refusal.message) }
        if refusal.isUnauthenticated, credentials != nil { return .tokenRefused(token) }
        if refusal.isCompactedRead { throw EtcdError.compacted(revision: 0) }
        throw refusal.error
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
