/// The `docker-credential-secstore` program: docker and podman run it as
/// `docker-credential-secstore store|get|erase|list|version` when `~/.docker/config.json`
/// says `"credsStore": "secstore"` (or `"credHelpers": {"registry": "secstore"}`).
///
/// | action | standard input | standard output |
/// | --- | --- | --- |
/// | `store` | `{"ServerURL","Username","Secret"}` | nothing |
/// | `get` | the server URL | `{"ServerURL","Username","Secret"}` |
/// | `erase` | the server URL | nothing |
/// | `list` | (ignored) | `{"<server URL>":"<username>",…}` |
/// | `version` | (ignored) | `docker-credential-secstore (SecStore) 1.0.0` |
///
/// As docker-credential-helpers' programs do, a failure prints its message on standard
/// output and exits 1; docker recognises ``notFound`` (`credentials not found in native
/// keychain`), ``missingServerURL`` and ``missingUsername`` by their exact text.
///
/// `SECSTORE_SYNCHRONIZABLE=1` in the environment (docker runs the helper with its own, and
/// `credsStore` names only the program), or `--synchronizable` before the action
/// (``SyncOption``), makes `store` add new credentials as synchronizable items, which
/// SecStore's sync carries to the owner's other devices. With or without it, `get`, `list`
/// and `erase` see both kinds, and `store` updates an existing credential keeping its kind.
///
/// ```swift
/// // Sources/docker-credential-secstore/main.swift
/// exit(DockerCredentialHelper.run(arguments: Array(CommandLine.arguments.dropFirst())))
/// ```
public enum DockerCredentialHelper {
    /// The program's name: docker runs `docker-credential-` followed by the `credsStore` value.
    public static let name = "docker-credential-secstore"
    /// What `version` prints between parentheses, where docker-credential-helpers prints its Go package.
    public static let package = "SecStore"
    /// The helper's version.
    public static let version = "1.0.0"
    /// The access group of the helper's items when `SECSTORE_ENTITLEMENTS` names none.
    public static let applicationIdentifier = "local.docker-credential-secstore"
    /// The usage line, printed (on standard output, status 1) for a wrong number of arguments:
    /// docker-credential-helpers' own, so it leaves out `--synchronizable` (`--help` names it).
    public static let usage = "Usage: \(name) <store|get|erase|list|version>"

    /// `credentials not found in native keychain`: `get` or `erase` of a URL with no credentials.
    public static let notFound = BridgeError(.incomplete, "credentials not found in native keychain")
    /// `no credentials server URL`: `store` without `ServerURL`, or `get`/`erase` with an empty input.
    public static let missingServerURL = BridgeError(.incomplete, "no credentials server URL")
    /// `no credentials username`: `store` without `Username`.
    public static let missingUsername = BridgeError(.incomplete, "no credentials username")

    /// Runs one action and returns the exit status.
    ///
    /// ```swift
    /// let status = DockerCredentialHelper.run(arguments: ["list"])
    /// ```
    public static func run(arguments: [String], io: HelperIO = .standard,
                           opener: HelperStore = HelperStore(applicationIdentifier: applicationIdentifier)) -> Int32 {
        let option: SyncOption
        do {
            option = try SyncOption(arguments: arguments, environment: opener.environment)
        } catch {
            io.writeOutput(error.message + "\n")
            return 1
        }
        guard option.operands.count == 1, let action = option.operands.first else {
            io.writeOutput(usage + "\n")
            return 1
        }
        switch action {
        case "--version", "-v", "version":
            io.writeOutput("\(name) (\(package)) \(version)\n")
            return 0
        case "--help", "-h":
            io.writeOutput(help)
            return 0
        default:
            break
        }
        do {
            try perform(action, addsSynchronizable: option.addsSynchronizable, io: io, opener: opener)
            return 0
        } catch {
            io.writeOutput(error.message + "\n")
            return 1
        }
    }

    /// What `--help` prints.
    static let help = """
        \(usage)

        A docker credential helper that keeps credentials in a SecStore store.
        Set it up with "credsStore": "secstore" in ~/.docker/config.json.

          SECSTORE_SYNCHRONIZABLE=1 (or --synchronizable)
                             store new credentials as synchronizable items, which SecStore's
                             sync carries to your other devices (docs/sync.md). docker runs
                             the helper with its own environment: set the variable where
                             docker runs.
        get, list and erase see credentials of both kinds, with or without it; store updates
        the existing credential of a URL and keeps its kind.

        """

    private static func perform(_ action: String, addsSynchronizable: Bool, io: HelperIO, opener: HelperStore) throws(BridgeError) {
        switch action {
        case "store":
            var input = try io.readInput(false)
            defer { BoundedInput.wipe(&input) }
            let credentials = try DockerCredentials(json: input)
            _ = try RegistryURL.location(of: credentials.serverURL)   // before a store file is created for it
            guard let store = try opener.open(creating: true) else { return }
            try DockerCredentialStore(store: store, addsSynchronizable: addsSynchronizable).store(credentials)
        case "get":
            let serverURL = try readServerURL(io)
            _ = try RegistryURL.location(of: serverURL)
            guard let store = try opener.open(creating: false),
                  let credentials = try DockerCredentialStore(store: store).get(serverURL: serverURL) else { throw notFound }
            io.writeOutput(credentials.json)
        case "erase":
            let serverURL = try readServerURL(io)
            _ = try RegistryURL.location(of: serverURL)
            guard let store = try opener.open(creating: false),
                  try DockerCredentialStore(store: store).erase(serverURL: serverURL) else { throw notFound }
        case "list":
            let urls = try opener.open(creating: false).map { store throws(BridgeError) in try DockerCredentialStore(store: store).list() } ?? [:]
            io.writeOutput(GoJSON.object(urls.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }) + "\n")
        default:
            throw BridgeError(.malformedInput, "\(name): unknown action: \(action)")
        }
    }

    /// The server URL `get` and `erase` read: the input without surrounding white space,
    /// lines joined as docker-credential-helpers joins them (Go's `bufio.ScanLines`: a line
    /// ends at LF, without the CR before it). No other character ends a line: a URL `store`
    /// took with U+2028 in it is named again by the same URL, and a CR inside a line stays,
    /// to be refused as Go refuses it.
    private static func readServerURL(_ io: HelperIO) throws(BridgeError) -> String {
        let input = try io.readInput(false)
        var joined: [UInt8] = []
        joined.reserveCapacity(input.count)
        for var line in input.split(separator: 0x0A, omittingEmptySubsequences: false) {
            if line.last == 0x0D { line = line.dropLast() }
            joined += line
        }
        guard let text = String(validating: joined, as: UTF8.self) else {
            throw BridgeError(.malformedInput, "the server URL is not UTF-8 text")
        }
        let serverURL = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !serverURL.isEmpty else { throw missingServerURL }
        return serverURL
    }
}
