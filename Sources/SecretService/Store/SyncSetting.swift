import SecStore

/// Whether the provider creates synchronizable items (`kSecAttrSynchronizable`), which
/// SecStore's sync carries to the owner's other devices (docs/sync.md, docs/secret-service.md
/// "Sync").
///
/// Asked for by the option `--synchronizable` or by `SECSTORE_SYNCHRONIZABLE=1`, with the
/// values the credential helpers accept (one reading for all: SecStore's
/// `SynchronizableEnvironment`). It changes only what `CreateItem` adds: every lookup sees both kinds
/// with or without it.
///
/// ```swift
/// let setting = try SyncSetting(flag: false, environment: ["SECSTORE_SYNCHRONIZABLE": "yes"])
/// setting.createsSynchronizable   // true
/// ```
package struct SyncSetting: Sendable, Equatable {
    /// The environment variable: `1` (or `true`, `yes`, `on`) asks for synchronizable items;
    /// `0` (`false`, `no`, `off`) or empty does not.
    package static let environmentVariable = SynchronizableEnvironment.variable

    /// Whether `CreateItem` adds synchronizable items.
    package var createsSynchronizable: Bool

    /// `flag` is the command line's `--synchronizable`; either it or the environment turns it on.
    ///
    /// ```swift
    /// let setting = try SyncSetting(flag: true, environment: ProcessInfo.processInfo.environment)
    /// ```
    ///
    /// - Throws: `SynchronizableEnvironment.Invalid` when the variable holds another value, so
    ///   that a typo never silently keeps secrets on one device (or sends them to every device).
    package init(flag: Bool, environment: [String: String]) throws(SynchronizableEnvironment.Invalid) {
        createsSynchronizable = try SynchronizableEnvironment.choice(flag: flag, in: environment)
    }
}
