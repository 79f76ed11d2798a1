/// The open sessions (`OpenSession`): each is a path clients pass back with every secret.
/// Only the `plain` algorithm: secrets cross the bus unencrypted, which on a private session
/// bus socket of the user adds no exposure the user's own processes do not already have
/// (docs/secret-service.md). The DH algorithm is refused with `NotSupported`, which libsecret
/// and SecretStorage answer by asking for `plain`.
struct Sessions {
    private var open: [String: String] = [:]   // path → the client's unique bus name
    private var next = 1

    /// Opens a session for `sender`; its path.
    mutating func open(algorithm: String, for sender: String) throws(BusError) -> String {
        guard algorithm == "plain" else {
            throw .notSupported("Only the plain algorithm is supported.")
        }
        let path = ObjectPaths.sessions + "/s\(next)"
        next += 1
        open[path] = sender
        return path
    }

    /// Fails with `NoSession` unless `path` is a session `sender` opened and has not closed.
    func check(_ path: String, for sender: String) throws(BusError) {
        guard open[path] == sender else { throw .noSession("The session does not exist or was closed.") }
    }

    mutating func close(_ path: String, for sender: String) throws(BusError) {
        try check(path, for: sender)
        open[path] = nil
    }

    /// Forgets every session of a client that left the bus.
    mutating func closeAll(of sender: String) {
        open = open.filter { $0.value != sender }
    }
}
