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

    /// POSTs `body` to `path` with failover and the auth token, and decodes the answer.
    func call<Response: Decodable>(_ path: String, _ body: [String: Any], as type: Response.Type) async throws -> Response {
        let data = try await call(path, Wire.encode(body))
        return try Wire.decode(type, data)
    }

    /// The failover loop: every endpoint from the preferred one, then again after a pause,
    /// until `retryWindow` closes.
    func call(_ path: String, _ body: Data) async throws -> Data {
        let deadline = Date().addingTimeInterval(retryWindow)
        var pause: Duration = .milliseconds(100)
        var lastReason = "no attempt made"
        var reauthenticated = false
        while true {
            for index in endpointOrder() {
                try Task.checkCancellation()
                var outcome = try await attempt(index, path, body)
                if case let .tokenRefused(refused) = outcome, !reauthenticated {
                    reauthenticated = true
                    dropToken(refused)
                    outcome = try await attempt(index, path, body)
                }
                switch outcome {
                case let .answered(data):
                    markWorking(index)
                    return data
                case let .unavailable(reason):
                    lastReason = "\(endpoints[index].absoluteString): \(reason)"
                case .tokenRefused:
                    throw EtcdError.authenticationFailed(message: "etcd refused a fresh auth token")
                }
            }
            guard Date().addingTimeInterval(pause.seconds) < deadline else {
                throw EtcdError.unreachable(endpoints: endpoints.map(\.absoluteString), lastReason: lastReason)
            }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(1))
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
        let refusal = try? JSONDecoder().decode(WireGatewayError.self, from: data)
        let code = refusal?.code ?? -1
        let message = refusal?.message ?? refusal?.error ?? "HTTP \(status) without an etcd error"
        if status == 503 || code == EtcdError.unavailableCode { return .unavailable(message) }
        if code == EtcdError.unauthenticatedCode, credentials != nil { return .tokenRefused(token) }
        if message.contains("required revision has been compacted") {
            // A read at a compacted revision; the gateway does not say which revision remains.
            throw EtcdError.compacted(revision: 0)
        }
        throw EtcdError.rejected(httpStatus: status, code: code, message: message)
    }

}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
