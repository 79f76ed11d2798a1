import Foundation

extension EtcdClient {
    /// The token to send, authenticating first (at the member being tried) when the client has
    /// credentials and no token yet. etcd replicates simple tokens through Raft, so one token
    /// serves every member; an expired one is refused with code 16 and replaced once per call.
    func tokenIfNeeded(at index: Int) async throws -> String? {
        guard let credentials else { return nil }
        if let token = state.withLock({ $0.token }) { return token }
        let token = try await authenticate(credentials, at: endpoints[index])
        state.withLock { $0.token = token }
        return token
    }

    /// `POST /v3/auth/authenticate`. Throws `.authenticationFailed` for a refused name or
    /// password, `.unreachable` when the member did not answer (the caller tries another).
    func authenticate(_ credentials: EtcdCredentials, at endpoint: URL) async throws -> String {
        let body = Wire.encode(["name": credentials.user, "password": credentials.password])
        let status: Int, data: Data
        do {
            (status, data) = try await http.post(endpoint.appending(path: "v3/auth/authenticate"), body: body, token: nil)
        } catch let error as EtcdTransportError {
            throw EtcdError.unreachable(endpoints: [endpoint.absoluteString], lastReason: error.description)
        }
        if status == 200 {
            guard let token = try Wire.decode(WireAuthenticateResponse.self, data).token, !token.isEmpty else {
                throw EtcdError.malformedResponse("authenticate returned no token")
            }
            return token
        }
        let refusal = try? JSONDecoder().decode(WireGatewayError.self, from: data)
        let message = refusal?.message ?? refusal?.error ?? "HTTP \(status)"
        if status == 503 || refusal?.code == EtcdError.unavailableCode {
            throw EtcdError.unreachable(endpoints: [endpoint.absoluteString], lastReason: message)
        }
        // etcd says "authentication failed, invalid user ID or password" (code 3), or
        // "authentication is not enabled" (code 9) when credentials are not expected.
        throw EtcdError.authenticationFailed(message: message)
    }
}
