/// The `git-credential-secstore` program: git runs it as `git-credential-secstore get|store|erase`
/// with a credential on standard input (`git config credential.helper secstore`).
///
/// - `get` prints `username=`, `password=` (and `password_expiry_utc=`,
///   `oauth_refresh_token=` when stored) for the best match, or nothing (status 0) when
///   there is none or no store exists yet.
/// - `store` keeps the credential, creating the store on first use.
/// - `erase` deletes the matching credentials; it refuses a request that names nothing.
/// - Any other operation is ignored (status 0), as the protocol asks.
///
/// `--synchronizable` before the operation (`git config credential.helper "secstore
/// --synchronizable"`), or `SECSTORE_SYNCHRONIZABLE=1` in the environment (``SyncOption``),
/// makes `store` add new credentials as synchronizable items, which SecStore's sync carries
/// to the owner's other devices. With or without it, every operation sees both kinds, and
/// `store` updates an existing credential keeping its kind.
///
/// Failures — malformed input, more than ``BoundedInput/maximumByteCount`` bytes, a locked
/// store — print one line on standard error (git shows it) and exit 1, having stored nothing.
///
/// ```swift
/// // Sources/git-credential-secstore/main.swift
/// exit(GitCredentialHelper.run(arguments: Array(CommandLine.arguments.dropFirst())))
/// ```
public enum GitCredentialHelper {
    /// The program's name, which git derives from `credential.helper secstore`.
    public static let name = "git-credential-secstore"
    /// The access group of the helper's items when `SECSTORE_ENTITLEMENTS` names none.
    public static let applicationIdentifier = "local.git-credential-secstore"
    /// The usage line.
    public static let usage = "usage: git credential-secstore [--synchronizable] <get|store|erase>"
    /// The helper's version.
    public static let version = "1.0.0"

    /// Runs one operation and returns the exit status.
    ///
    /// ```swift
    /// let status = GitCredentialHelper.run(arguments: ["get"], io: .standard,
    ///                                      opener: HelperStore(applicationIdentifier: GitCredentialHelper.applicationIdentifier))
    /// ```
    public static func run(arguments: [String], io: HelperIO = .standard,
                           opener: HelperStore = HelperStore(applicationIdentifier: applicationIdentifier)) -> Int32 {
        let option: SyncOption
        do {
            option = try SyncOption(arguments: arguments, environment: opener.environment)
        } catch {
            io.writeError("\(name): \(error.message)\n")
            return 1
        }
        let arguments = option.operands
        switch arguments {
        case ["--help"], ["-h"]:
            io.writeOutput(help)
            return 0
        case ["--version"]:
            io.writeOutput("\(name) \(version)\n")
            return 0
        default:
            break
        }
        guard arguments.count == 1, let operation = arguments.first else {
            io.writeError("\(usage)\n")
            return 1
        }
        do {
            var input = try io.readInput(true)
            defer { BoundedInput.wipe(&input) }
            let credential = try GitCredential(parsing: input)
            try perform(operation, credential, addsSynchronizable: option.addsSynchronizable, io: io, opener: opener)
            return 0
        } catch {
            io.writeError("\(name): \(error.message)\n")
            return 1
        }
    }

    /// What `--help` prints.
    static let help = """
        \(usage)

        A git credential helper that keeps credentials in a SecStore store.
        Set it up with: git config --global credential.helper secstore

          --synchronizable   store new credentials as synchronizable items, which SecStore's
                             sync carries to your other devices (docs/sync.md):
                             git config --global credential.helper "secstore --synchronizable"
                             SECSTORE_SYNCHRONIZABLE=1 in the environment does the same.
        get and erase find credentials of both kinds, with or without it; store updates an
        existing credential and keeps its kind.

        """

    private static func perform(_ operation: String, _ credential: GitCredential, addsSynchronizable: Bool,
                                io: HelperIO, opener: HelperStore) throws(BridgeError) {
        switch operation {
        case "get":
            guard let store = try opener.open(creating: false),
                  let answer = try GitCredentialStore(store: store).get(credential) else { return }
            io.writeOutput(answer.answer)
        case "store":
            // Checked before the store is opened, so bad input creates no file.
            try GitCredentialStore.checkStorable(credential)
            guard let store = try opener.open(creating: true) else { return }
            try GitCredentialStore(store: store, addsSynchronizable: addsSynchronizable).store(credential)
        case "erase":
            try GitCredentialStore.checkErasable(credential)
            guard let store = try opener.open(creating: false) else { return }
            try GitCredentialStore(store: store).erase(credential)
        default:
            return   // Unknown operations are ignored: later versions of git may add some.
        }
    }
}
