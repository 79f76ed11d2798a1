import Glibc

/// Why the kernel keyring refused to take a key: the `errno` of `add_key(2)` or `keyctl(2)`.
/// ``SecretStore/keyringRefusal`` reports it; it is a value to inspect, never thrown.
///
/// Two kinds matter. Where the kernel or a seccomp filter refuses keyrings altogether
/// (``meansUnavailable``: `ENOSYS`, `EPERM`, `EACCES`, common in containers) SecStore falls
/// back to process memory for good. Anything else — above all ``meansQuotaExceeded``
/// (`EDQUOT`: the user's key quota, `/proc/sys/kernel/keys/maxkeys` and `maxbytes`, is full) —
/// refuses one attempt: its keys stay in this process, and nothing of it is shared. So does
/// ``meansLockedMeanwhile``: a `secstore lock` in another process removed the store's keyring
/// while the attempt was putting its keys there (or another unlock, making the keyring at the
/// same moment, displaced it).
///
/// ```swift
/// try store.unlock(passphrase: passphrase)
/// if let refusal = store.keyringRefusal, !refusal.meansUnavailable {
///     print("not shared with other processes: \(refusal)")   // "the user's key quota is full (EDQUOT)"
/// }
/// ```
public struct KeyringRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The `errno` the kernel returned (`EDQUOT` is 122 on Linux).
    public let errno: Int32

    /// Whether the store's keyring was removed while the attempt was linking its keys into it.
    private let lockedMeanwhile: Bool

    /// A refusal with this `errno`.
    ///
    /// ```swift
    /// KeyringRefusal(errno: EDQUOT).meansQuotaExceeded   // true
    /// ```
    public init(errno: Int32) {
        self.init(errno: errno, lockedMeanwhile: false)
    }

    /// A refusal with this `errno`; `lockedMeanwhile`: see ``meansLockedMeanwhile``.
    init(errno: Int32, lockedMeanwhile: Bool) {
        self.errno = errno
        self.lockedMeanwhile = lockedMeanwhile
    }

    /// The kernel or a seccomp filter refuses keyrings altogether (`ENOSYS`, `EPERM`, `EACCES`).
    public var meansUnavailable: Bool { [ENOSYS, EPERM, EACCES].contains(errno) }

    /// The user's key quota is full (`EDQUOT`): too many keys, or too many bytes, for this
    /// user (`/proc/sys/kernel/keys/maxkeys`, `maxbytes`; `root_maxkeys`, `root_maxbytes` for root).
    public var meansQuotaExceeded: Bool { errno == EDQUOT }

    /// The store's keyring (`secstore:<store id>`, which holds every entry of the store) was
    /// removed while this attempt was linking its keys into it: a `secstore lock` (or
    /// `secstore keyring prune`) in another process ended the unlock half-way. What the attempt
    /// had shared went with the keyring, and it shared nothing more; its keys stay in its process.
    public var meansLockedMeanwhile: Bool { lockedMeanwhile }

    /// What happened, in words, with the errno's name: "the user's key quota is full (EDQUOT)".
    public var description: String {
        let name = Self.names[errno].map { "(\($0))" } ?? "(errno \(errno))"
        if lockedMeanwhile { return "the store's keyring was removed or replaced meanwhile, by a `secstore lock` or by another unlock making it at the same moment \(name)" }
        switch errno {
        case EDQUOT: return "the user's key quota is full \(name)"
        case ENOSYS, EPERM, EACCES: return "keyrings are unavailable here \(name)"
        case ENOMEM: return "the kernel is out of memory for keys \(name)"
        case EKEYREVOKED, EKEYEXPIRED: return "the user keyring is revoked or expired \(name)"
        // What add_key(2) says when the user keyring does not exist and cannot be created,
        // as when the key quota is already full.
        case ENOKEY: return "the kernel could not find or create the user keyring \(name)"
        default: return String(cString: strerror(errno)) + " " + name
        }
    }

    private static let names: [Int32: String] = [
        EPERM: "EPERM", ENOENT: "ENOENT", ENOMEM: "ENOMEM", EACCES: "EACCES", EINVAL: "EINVAL",
        ENOSYS: "ENOSYS", EMSGSIZE: "EMSGSIZE", EDQUOT: "EDQUOT", ENOKEY: "ENOKEY",
        EKEYEXPIRED: "EKEYEXPIRED", EKEYREVOKED: "EKEYREVOKED", EKEYREJECTED: "EKEYREJECTED",
    ]
}
