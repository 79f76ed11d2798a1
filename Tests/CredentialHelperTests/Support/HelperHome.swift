import Foundation
import SecStore
import Testing

/// A temporary HOME with one store (`SECSTORE_PATH`) and device key (`SECSTORE_DEVICE_KEY`),
/// and runners for the two helpers and for `git` with only our helper configured. Removed
/// when released.
final class HelperHome: @unchecked Sendable {
    let directory: URL
    /// Extra environment for every run (a passphrase file, …).
    var extraEnvironment: [String: String] = [:]

    init() throws {
        directory = FileManager.default.temporaryDirectory.appending(path: "credential-home-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var storeURL: URL { directory.appending(path: "data/credentials.secstore") }
    var deviceKeyURL: URL { directory.appending(path: "keys/device.key") }

    /// The environment of every run: the test's, without `SECSTORE_*`, `GIT_*` and proxies,
    /// HOME here, no kernel keyring (nothing left behind), git never prompting: a credential
    /// miss makes git fail at once through a failing askpass program instead of waiting for a
    /// terminal.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SECSTORE_") && !$0.key.hasPrefix("GIT_") }
        environment["HOME"] = directory.path
        environment["XDG_DATA_HOME"] = nil
        environment["XDG_CONFIG_HOME"] = nil
        environment["SECSTORE_PATH"] = storeURL.path
        environment["SECSTORE_DEVICE_KEY"] = deviceKeyURL.path
        environment["SECSTORE_KEYRING"] = "off"
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_ASKPASS"] = "/bin/false"
        environment["SSH_ASKPASS"] = nil
        // The test server is on 127.0.0.1: no proxy may stand between git and it.
        for proxy in ["http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"] { environment[proxy] = nil }
        for (key, value) in extraEnvironment { environment[key] = value }
        return environment.filter { !$0.value.isEmpty }
    }

    /// Runs `git-credential-secstore OPERATION` with `input` on standard input.
    @discardableResult
    func gitHelper(_ arguments: String..., input: String) throws -> Run.Result {
        try Run.run(Run.gitHelperURL, arguments, stdin: Data(input.utf8), environment: environment)
    }

    /// Runs `docker-credential-secstore ACTION` with `input` on standard input.
    @discardableResult
    func docker(_ arguments: String..., input: String = "") throws -> Run.Result {
        try Run.run(Run.dockerHelperURL, arguments, stdin: Data(input.utf8), environment: environment)
    }

    /// Runs the real `git` with our helper as the only credential helper (by absolute path,
    /// as `credential.helper` allows), plus `config` settings. `helper`, when given, is the
    /// `credential.helper` value as a user writes it (`secstore --synchronizable`): git
    /// then finds `git-credential-secstore` on `PATH`, where the built products come first.
    func git(_ arguments: [String], input: String = "", config: [String] = [], helper: String? = nil) throws -> Run.Result {
        let git = try #require(Run.which("git"), "git is not installed: scripts/bootstrap.sh installs it")
        // git runs an absolute helper path through the shell unquoted: quote one with a space.
        let path = Run.gitHelperURL.path
        let setting = helper ?? (path.contains(" ") ? "!'\(path)'" : path)
        let settings = (["credential.helper=", "credential.helper=\(setting)"] + config).flatMap { ["-c", $0] }
        var environment = environment
        if helper != nil {
            environment["PATH"] = Run.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        }
        return try Run.run(git, settings + arguments, stdin: Data(input.utf8), environment: environment)
    }

    /// Runs the real `docker` CLI with `"credsStore": "secstore"` in this HOME's
    /// `~/.docker/config.json`, so it finds `docker-credential-secstore` on `PATH`, where the
    /// built products come first. `DOCKER_HOST` names a socket that does not exist: `docker
    /// login` and `logout` then talk to the registry and the helper alone, no daemon.
    func dockerClient(_ arguments: [String], input: String = "") throws -> Run.Result {
        let docker = try #require(Run.which("docker"), "docker is not installed")
        let configDirectory = directory.appending(path: ".docker", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
        let config = configDirectory.appending(path: "config.json")
        if !FileManager.default.fileExists(atPath: config.path) {
            try Data(#"{"credsStore": "secstore"}"#.utf8).write(to: config)
        }
        var environment = environment
        environment["PATH"] = Run.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["DOCKER_CONFIG"] = configDirectory.path
        environment["DOCKER_HOST"] = "unix://" + directory.appending(path: "no-daemon.sock").path
        environment["DOCKER_CONTEXT"] = nil   // would conflict with DOCKER_HOST
        return try Run.run(docker, arguments, stdin: Data(input.utf8), environment: environment)
    }

    /// The contents of this HOME's `~/.docker/config.json`, where docker keeps no secret
    /// when a helper stores it.
    var dockerConfig: String {
        (try? String(contentsOf: directory.appending(path: ".docker/config.json"), encoding: .utf8)) ?? ""
    }

    /// `git credential fill` for `url` (and any extra lines); the fields git answered with.
    func fill(_ lines: String, config: [String] = [], helper: String? = nil) throws -> (result: Run.Result, fields: [String: String]) {
        let result = try git(["credential", "fill"], input: lines + "\n", config: config, helper: helper)
        return (result, Self.fields(result.stdout))
    }

    /// `git credential approve` of these lines.
    func approve(_ lines: String, config: [String] = [], helper: String? = nil) throws {
        let result = try git(["credential", "approve"], input: lines + "\n", config: config, helper: helper)
        try #require(result.status == 0, "approve failed: \(result)")
    }

    /// `git credential reject` of these lines.
    func reject(_ lines: String, config: [String] = [], helper: String? = nil) throws {
        let result = try git(["credential", "reject"], input: lines + "\n", config: config, helper: helper)
        try #require(result.status == 0, "reject failed: \(result)")
    }

    /// `key=value` lines as a dictionary (the last value of a key wins).
    static func fields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let separator = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<separator])] = String(line[line.index(after: separator)...])
        }
        return fields
    }

    /// Opens the store in the test process as its owner, to check what the helpers wrote.
    func open() throws -> SecretStore {
        try SecretStore(at: storeURL, options: .init(access: .owner, deviceKeyURL: deviceKeyURL, createIfMissing: false))
    }

    /// Every internet password in the store, as the owner sees it, with secrets: by default
    /// those that are not synchronizable (the store's default), `.yes` or `.any` for the others.
    func internetPasswords(synchronizable: SynchronizableMatch = .no) throws -> [Item] {
        guard FileManager.default.fileExists(atPath: storeURL.path) else { return [] }
        return try open().find(Query(itemClass: .internetPassword, synchronizable: synchronizable, limit: .all,
                                     returning: [.attributes, .data]))
    }

    /// Adds an internet password through the library, as another front end (or sync, from
    /// another device) would, creating the store when there is none yet.
    func addInternetPassword(server: String, account: String, password: String, group: String,
                             synchronizable: Bool, port: Int? = nil, path: String? = nil, label: String? = nil) throws {
        let store = try SecretStore(at: storeURL, options: .init(access: .owner, deviceKeyURL: deviceKeyURL, createIfMissing: true))
        var attributes = Attributes()
        attributes.protocol = .https
        attributes.server = server
        attributes.port = port
        attributes.path = path
        attributes.account = account
        attributes.authenticationType = .default
        attributes.accessGroup = group
        attributes.label = label
        attributes.isSynchronizable = synchronizable
        _ = try store.add(Item(itemClass: .internetPassword, attributes: attributes, data: Data(password.utf8)))
    }

    /// A private file holding `passphrase`, for SECSTORE_PASSPHRASE_FILE.
    func passphraseFile(_ passphrase: String) throws -> String {
        let url = directory.appending(path: "passphrase-\(UUID().uuidString)")
        try #require(FileManager.default.createFile(atPath: url.path, contents: Data((passphrase + "\n").utf8),
                                                    attributes: [.posixPermissions: 0o600]))
        return url.path
    }
}

/// The installed git's version, for the protocol features it has.
enum GitVersion {
    /// (major, minor), or nil when git is missing.
    static let installed: (Int, Int)? = {
        guard let git = Run.which("git"),
              let result = try? Run.run(git, ["--version"], environment: ProcessInfo.processInfo.environment) else { return nil }
        let numbers = result.stdout.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
    }()

    /// git 2.41 added `password_expiry_utc` and `oauth_refresh_token` to the protocol.
    static var hasExpiryAndRefreshToken: Bool {
        guard let (major, minor) = installed else { return false }
        return major > 2 || (major == 2 && minor >= 41)
    }
}
