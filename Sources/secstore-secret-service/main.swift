import ArgumentParser
import Foundation
import Glibc
import SecStore
import SecretService

/// `secstore-secret-service`: the freedesktop Secret Service (org.freedesktop.secrets) on the
/// session bus, over a SecStore store. See docs/secret-service.md.
struct SecretServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secstore-secret-service",
        abstract: "Serve the freedesktop Secret Service (org.freedesktop.secrets) from a SecStore store.",
        discussion: "Clients such as secret-tool, Python keyring and libsecret applications use it unchanged. It never prompts: a store with a passphrase stays locked until `secstore unlock --for` or --passphrase-file.")

    @Option(help: "The store file (default: $SECSTORE_PATH, else the user's default store).")
    var store: String?

    @Option(name: .customLong("device-key"), help: "The device key file (default: $SECSTORE_DEVICE_KEY, else the user's).")
    var deviceKey: String?

    @Option(name: .customLong("passphrase-file"), help: "Unlock the store with the passphrase in this file (its first line; a private file, mode 0600 or 0400).")
    var passphraseFile: String?

    @Option(name: .customLong("policy-directory"), help: "Per-binary policies: <dir>/<executable path>.entitlements (default: $XDG_CONFIG_HOME/secstore/secret-service).")
    var policyDirectory: String?

    @Flag(help: "Create synchronizable items, which SecStore's sync carries to your other devices (also SECSTORE_SYNCHRONIZABLE=1). Lookups see both kinds either way.")
    var synchronizable = false

    @Flag(help: "Take org.freedesktop.secrets over from a provider that allows replacement.")
    var replace = false

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let sync: SyncSetting
        do {
            sync = try SyncSetting(flag: synchronizable, environment: environment)
        } catch {
            throw ValidationFailure(error.description)
        }
        var options = SecretStore.Options(access: .owner)
        if let keyPath = deviceKey ?? environment["SECSTORE_DEVICE_KEY"] { options.deviceKeyURL = URL(filePath: keyPath) }
        let storeURL = (store ?? environment["SECSTORE_PATH"]).map { URL(filePath: $0) } ?? StoreLocation.defaultStoreURL()
        let secretStore = try SecretStore(at: storeURL, options: options)
        if let passphraseFile {
            // The library's rule for a passphrase file: private to this user, first line.
            try secretStore.unlock(passphrase: try PassphraseFile.passphrase(at: URL(filePath: passphraseFile)))
        }
        let server = SecretServiceServer(store: secretStore, policyDirectory: policyDirectory.map { URL(filePath: $0) }, sync: sync) { line in
            FileHandle.standardError.write(Data("secstore-secret-service: \(line)\n".utf8))
        }
        do {
            try server.run(replace: replace)
        } catch let error as CustomStringConvertible {
            throw ValidationFailure(error.description)
        }
    }
}

/// A failure reported as one line and exit status 1.
struct ValidationFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

// No core file, no register dump: the provider holds unwrapped keys and the secrets it serves.
CrashHygiene.apply()

// A launcher may pass on a mask that blocks SIGTERM (some test runners and shells do); the
// provider must stop when systemd or its user asks.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&stopSignals, signal) }
sigprocmask(SIG_UNBLOCK, &stopSignals, nil)

// A long-running server of SecStore's own, with no other SQLite user: SQLite's allocator needs
// no process-wide mutex here (SecretStore.disableSQLiteMemoryStatistics says why).
SecretStore.disableSQLiteMemoryStatistics()

SecretServiceCommand.main()
