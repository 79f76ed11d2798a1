/// `SECSTORE_SYNCHRONIZABLE`, the environment variable read by the front ends that store
/// items for other programs (the git and docker credential helpers, the Secret Service
/// provider): whether the items they create are synchronizable, so that sync carries them to
/// the owner's other devices (docs/sync.md). One reading of it for all of them.
///
/// ```swift
/// SynchronizableEnvironment.value(in: ["SECSTORE_SYNCHRONIZABLE": "yes"])   // true
/// SynchronizableEnvironment.value(in: [:])                                  // false
/// SynchronizableEnvironment.value(in: ["SECSTORE_SYNCHRONIZABLE": "maybe"]) // nil: refuse it
/// ```
package enum SynchronizableEnvironment {
    package static let variable = "SECSTORE_SYNCHRONIZABLE"

    /// `true` for `1`, `true`, `yes`, `on`; `false` for `0`, `false`, `no`, `off`, empty or
    /// unset (any case); `nil` for anything else, which callers refuse, so that a typo never
    /// silently keeps secrets on one device or sends them to every device.
    /// Whether new items are synchronizable: the front end's own `--synchronizable` (`flag`),
    /// or the variable. A value that is neither on nor off is ``Invalid``.
    ///
    /// ```swift
    /// let synchronizable = try SynchronizableEnvironment.choice(flag: false, in: ProcessInfo.processInfo.environment)
    /// ```
    package static func choice(flag: Bool, in environment: [String: String]) throws(Invalid) -> Bool {
        guard let fromEnvironment = value(in: environment) else { throw Invalid() }
        return flag || fromEnvironment
    }

    /// `SECSTORE_SYNCHRONIZABLE` held a value that is neither on nor off (not repeated here).
    package struct Invalid: Error, CustomStringConvertible {
        package var description: String { "\(SynchronizableEnvironment.variable) must be 1 or 0" }
    }

    package static func value(in environment: [String: String]) -> Bool? {
        switch (environment[variable] ?? "").lowercased() {
        case "1", "true", "yes", "on": true
        case "", "0", "false", "no", "off": false
        default: nil
        }
    }
}
