import ArgumentParser
import SecStore

// Command-line spellings of the helper's option values. The tests pass switches as
// `--name yes` rather than bare flags, so these stay options with a value.

/// `yes` or `no`, for `--owner` and `--reset`.
enum YesNo: String, CaseIterable, ExpressibleByArgument {
    case yes, no
}

/// `--first-unlock-cache`: `process` keeps AfterFirstUnlock keys in this process only (no
/// state shared with other tests), `kernel-keyring` in the kernel user keyring.
enum FirstUnlockCacheArgument: String, CaseIterable, ExpressibleByArgument {
    case process
    case kernelKeyring = "kernel-keyring"

    var cache: FirstUnlockCache {
        switch self {
        case .process: .processMemory
        case .kernelKeyring: .kernelKeyring
        }
    }
}
