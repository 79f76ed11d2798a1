/// `Mirror`, `dump` and debuggers show the bridges' credentials without their secrets, as
/// their descriptions do: the default mirror reflects every stored property, so
/// `dump(credential)` printed the password (SecStore's `Item` hides its data the same way).
///
/// ```swift
/// dump(DockerCredentials(serverURL: "r.example.com", username: "alice", secret: "s3cr3t"))
/// // ▿ DockerCredentials(… secret: <redacted>)
/// //   - serverURL: "r.example.com"  - username: "alice"  - secret: "<redacted>"
/// ```
private func redacted(_ secret: String?) -> Any {
    secret.map { _ in "<redacted>" } as Any
}

extension GitSecret: CustomReflectable {
    /// The expiry; the password and the refresh token as `<redacted>` when set.
    public var customMirror: Mirror {
        Mirror(self, children: ["password": redacted(password), "expiry": expiry as Any,
                                "refreshToken": redacted(refreshToken)], displayStyle: .struct)
    }
}

extension GitCredential: CustomReflectable {
    /// The location, the username and the expiry; the password and the refresh token as
    /// `<redacted>` when set.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "protocol": self.protocol as Any, "host": host as Any, "path": path as Any, "username": username as Any,
            "password": redacted(password), "passwordExpiryUTC": passwordExpiryUTC as Any,
            "oauthRefreshToken": redacted(oauthRefreshToken),
        ], displayStyle: .struct)
    }
}

extension DockerCredentials: CustomReflectable {
    /// The server and the username; the secret as `<redacted>`.
    public var customMirror: Mirror {
        Mirror(self, children: ["serverURL": serverURL, "username": username, "secret": redacted(secret)],
               displayStyle: .struct)
    }
}
