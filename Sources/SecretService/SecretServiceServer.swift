import Foundation
import SecStore

/// Serves the Secret Service for `store` on the session bus until the bus goes away (an
/// error: ``run(replace:)`` never returns normally): the entry point of `secstore-secret-service`.
package struct SecretServiceServer {
    private let store: SecretStore
    private let access: CollectionAccess
    private let log: (String) -> Void

    private let policy: BinaryPolicy
    private let sync: SyncSetting

    /// `policyDirectory` holds the per-binary policies (``BinaryPolicy``; `nil`: the default
    /// directory). `sync` says whether new items are synchronizable (lookups see both kinds
    /// either way). `log` receives one line per event worth telling the operator (never a
    /// secret or an attribute value).
    ///
    /// ```swift
    /// let server = SecretServiceServer(store: store, policyDirectory: nil,
    ///                                  sync: try SyncSetting(flag: true, environment: [:])) { print($0) }
    /// ```
    package init(store: SecretStore, policyDirectory: URL?, sync: SyncSetting, log: @escaping (String) -> Void) {
        self.store = store
        self.sync = sync
        self.access = CollectionAccess()
        self.policy = BinaryPolicy(directory: policyDirectory ?? BinaryPolicy.defaultDirectory(), log: log)
        self.log = log
    }

    /// Owns `org.freedesktop.secrets` (taking it over from a provider that allows it when
    /// `replace`) and serves calls until the bus connection ends, which it reports by throwing
    /// (the command exits with status 1): it never returns normally.
    package func run(replace: Bool) throws {
        let connection = try BusConnection()
        var access = self.access
        let callers = CallerCache()
        access.policy = { [unowned connection, policy] sender in
            // The bus daemon vouches for the PID; the executable is read on every call, the
            // policy too, so that a changed policy applies at once.
            guard let pid = callers.pid(of: sender, lookup: { connection.processID(of: $0) }),
                  let executable = CallerExecutable.path(of: pid) else { return [] }
            return policy.groups(for: executable)
        }
        // The clients a granted collection's signals are unicast to: those that called.
        access.clients = { callers.clients }
        let provider = SecretServiceProvider(store: store, access: access, createsSynchronizable: sync.createsSynchronizable)
        provider.emitSignal = { [unowned connection] path, interface, member, values, destination in
            connection.emitSignal(path: path, interface: interface, member: member, values, destination: destination)
        }
        try connection.serve(below: ObjectPaths.service) { (call) throws(BusError) in
            do throws(BusError) {
                return try provider.handle(call)
            } catch {
                // libsecret and SecretStorage try DH first and fall back to plain: not news.
                if !(call.member == "OpenSession" && error.name == BusError.notSupported("").name) {
                    log("\(call.interface).\(call.member) on \(call.path): \(error.name)")
                }
                throw error
            }
        }
        try connection.onClientDeparture { [unowned provider] name in
            provider.sessions.closeAll(of: name)
            callers.forget(name)
        }
        try connection.requestName(SecretServiceProvider.busName, replace: replace)
        log("serving \(SecretServiceProvider.busName) for \(store.url.path)\(sync.createsSynchronizable ? ", new items synchronizable" : "")")
        try connection.run()
        // Never a normal end: a provider the bus dropped (the daemon closed its connection or
        // stopped) serves nobody, and a non-zero status lets a service manager restart it
        // (contrib's unit has Restart=on-failure).
        throw BusConnectionError("The bus connection ended: the bus daemon closed it or stopped.")
    }
}
