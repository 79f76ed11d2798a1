import SecStore

/// Serves the Secret Service for `store` on the session bus until the bus goes away: the
/// entry point of `secstore-secret-service`.
package struct SecretServiceServer {
    private let store: SecretStore
    private let access: CollectionAccess
    private let log: (String) -> Void

    /// `log` receives one line per event worth telling the operator (never a secret or an
    /// attribute value).
    package init(store: SecretStore, log: @escaping (String) -> Void) {
        self.store = store
        self.access = CollectionAccess()
        self.log = log
    }

    /// Owns `org.freedesktop.secrets` (taking it over from a provider that allows it when
    /// `replace`) and serves calls until the bus connection ends.
    package func run(replace: Bool) throws {
        let connection = try BusConnection()
        let provider = SecretServiceProvider(store: store, access: access)
        provider.emitSignal = { [unowned connection] path, interface, member, values in
            connection.emitSignal(path: path, interface: interface, member: member, values)
        }
        try connection.serve(below: ObjectPaths.service) { (call) throws(BusError) in
            do throws(BusError) {
                return try provider.handle(call)
            } catch {
                log("\(call.interface).\(call.member) on \(call.path): \(error.name)")
                throw error
            }
        }
        try connection.requestName(SecretServiceProvider.busName, replace: replace)
        log("serving \(SecretServiceProvider.busName) for \(store.url.path)")
        try connection.run()
        log("the bus connection ended")
    }
}
