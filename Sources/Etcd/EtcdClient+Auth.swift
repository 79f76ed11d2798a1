import Foundation

extension EtcdClient {
    /// The token to send, authenticating first (at the member being tried) when the client has
    /// credentials and no token yet. etcd replicates simple tokens through Raft, so one token
    /// serves every member; an expired one is refused with code 16 and replaced once per call.
    /// Concurrent calls share one authentication: each costs etcd a bcrypt and a Raft entry.
    func tokenIfNeeded(at index: Int) async throws -> String? {
        guard let credentials else { return nil }
        let (token, pending) = state.withLock { state -> (String?, Task<String, any Error>?) in
            if let token = state.token { return (token, nil) }
            if let pending = state.authentication { return (nil, pending) }
            let endpoint = endpoints[index]
            let started = Task { try await self.authenticate(credentials, at: endpoint) }
            state.authentication = started
            return (nil, started)
        }
        if let token { return token }
        do {
            let token = try await pending!.value
            state.withLock { state in
                if state.authentication == pending { state.authentication = nil }
                state.token = token
            }
            return token
        } catch {
            state.withLock { state in
                if state.authentication == pending { state.authentication = nil }
            }
            throw error
        }
    }

    /// Forgets `refused` (the token a request was sent with), unless another call replaced it.
    func dropToken(_ refused: String?) {
        state.withLock { state in
            if state.token == refused { state.token = nil }
        }
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
            // The token goes into the head of every later request, to every member: a line
            // break in it (from a compromised member, or anyone answering on plain http://)
            // would add headers of its choosing. etcd's simple and JWT tokens are visible
            // ASCII. The message leaves the token out: it is a credential.
            guard token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw EtcdError.malformedResponse("authenticate returned a token that is not visible ASCII")
            }
            return token
        }
        let refusal = EtcdRefusal(status: status, body: data)
        if refusal.isUnavailable {
            throw EtcdError.unreachable(endpoints: [endpoint.absoluteString], lastReason: refusal.message)
        }
        // etcd says "authentication failed, invalid user ID or password" (code 3), or
        // "authentication is not enabled" (code 9) when credentials are not expected.
        throw EtcdError.authenticationFailed(message: refusal.message)
    }
}
