import Foundation
import SecStore
import Testing

/// A temporary directory with one store and its device key, and a `secstore` runner that
/// passes `--store` and `--device-key` for them. Removed when released.
final class CLIStore: @unchecked Sendable {
    let directory: URL
    /// The minimal Argon2id limits, so passphrase work takes milliseconds.
    static let fastKDF = ["--kdf-ops", "1", "--kdf-memory", "8192"]
    static let passphrase = "correct horse battery staple"

    init() throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "secstore-cli-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var storeURL: URL { directory.appending(path: "data/test.secstore") }
    var deviceKeyURL: URL { directory.appending(path: "keys/device.key") }
    var storeArguments: [String] { ["--store", storeURL.path, "--device-key", deviceKeyURL.path] }

    /// A file in the directory (backups, passphrase files).
    func file(_ name: String) -> URL { directory.appending(path: name) }

    /// Runs `secstore COMMAND … --store … --device-key …`.
    @discardableResult
    func run(_ arguments: String..., stdin: String = "", environment: [String: String] = [:]) throws -> CLI.Result {
        try run(arguments, stdin: Data(stdin.utf8), environment: environment)
    }

    @discardableResult
    func run(_ arguments: [String], stdin: Data, environment: [String: String] = [:]) throws -> CLI.Result {
        try CLI.run(arguments + storeArguments, stdin: stdin, home: directory, environment: environment)
    }

    /// Creates the store (with the passphrase when asked), failing the test on error.
    static func created(passphrase: Bool = false) throws -> CLIStore {
        let store = try CLIStore()
        let result = passphrase
            ? try store.run(["create", "--passphrase-stdin"] + fastKDF, stdin: Data((Self.passphrase + "\n").utf8))
            : try store.run("create")
        try #require(result.status == Exit.success, "create failed: \(result)")
        return store
    }

    /// A file holding the store passphrase, mode 0600, for `--passphrase-file`.
    func passphraseFile(_ passphrase: String = CLIStore.passphrase) throws -> String {
        let url = file("passphrase-\(UUID().uuidString)")
        try #require(FileManager.default.createFile(atPath: url.path, contents: Data((passphrase + "\n").utf8),
                                                    attributes: [.posixPermissions: 0o600]))
        return url.path
    }

    /// Adds a generic password from standard input, failing the test on error.
    func add(service: String, account: String, secret: String, _ extra: String...) throws {
        let result = try run(["add", "--service", service, "--account", account, "--value-stdin"] + extra, stdin: Data(secret.utf8))
        try #require(result.status == Exit.success, "add failed: \(result)")
    }

    /// Opens the store in the test process, as its owner (for checks through the engine API).
    func open() throws -> SecretStore {
        try SecretStore(at: storeURL, options: .init(access: .owner, deviceKeyURL: deviceKeyURL, createIfMissing: false))
    }
}
