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
    package static func value(in environment: [String: String]) -> Bool? {
        switch (environment[variable] ?? "").lowercased() {
        case "1", "true", "yes", "on": true
        case "", "0", "false", "no", "off": false
        default: nil
        }
    }
}
