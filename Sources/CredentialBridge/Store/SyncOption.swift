import SecStore

/// Whether a helper adds new credentials as synchronizable items (`kSecAttrSynchronizable`),
/// which SecStore's sync carries to the owner's other devices (docs/sync.md).
///
/// Asked for by the option `--synchronizable` before the operation (git runs
/// `git-credential-secstore --synchronizable get` for `credential.helper "secstore
/// --synchronizable"`), or by the environment variable `SECSTORE_SYNCHRONIZABLE=1`, which is
/// the only way for docker: `credsStore` names a program, never its arguments.
///
/// It changes only what a `store` adds: reads, updates and erases see both kinds of
/// credential with or without it.
///
/// ```swift
/// let choice = try SyncOption(arguments: ["--synchronizable", "store"], environment: [:])
/// choice.addsSynchronizable   // true
/// choice.operands             // ["store"]
/// ```
public struct SyncOption: Sendable, Equatable {
    /// The option, given before the operation.
    public static let flag = "--synchronizable"
    /// The environment variable: `1` (or `true`, `yes`, `on`) asks for synchronizable items;
    /// `0` (`false`, `no`, `off`) or empty does not.
    public static let environmentVariable = SynchronizableEnvironment.variable

    /// Whether `store` adds a new credential as a synchronizable item.
    public var addsSynchronizable: Bool
    /// The arguments after the leading options: the operation.
    public var operands: [String]

    /// Reads the leading `--synchronizable` options (any number of them) and the environment.
    ///
    /// ```swift
    /// let choice = try SyncOption(arguments: Array(CommandLine.arguments.dropFirst()),
    ///                             environment: ProcessInfo.processInfo.environment)
    /// ```
    ///
    /// - Throws: ``BridgeError`` ``BridgeError/Kind/malformedInput`` when
    ///   `SECSTORE_SYNCHRONIZABLE` holds anything else than the values above, so a typo never
    ///   silently keeps credentials on one device (or sends them to every device).
    public init(arguments: [String], environment: [String: String]) throws(BridgeError) {
        let options = arguments.prefix { $0 == Self.flag }
        operands = Array(arguments.dropFirst(options.count))
        do {
            addsSynchronizable = try SynchronizableEnvironment.choice(flag: !options.isEmpty, in: environment)
        } catch {
            throw BridgeError(.malformedInput, error.description)
        }
    }
}
