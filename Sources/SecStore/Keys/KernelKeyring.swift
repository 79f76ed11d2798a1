internal import CKeyring
import Glibc

/// Why the kernel keyring refused to take a key: the `errno` of `add_key(2)` or `keyctl(2)`.
/// ``SecretStore/keyringRefusal`` reports it; it is a value to inspect, never thrown.
///
/// Two kinds matter. Where the kernel or a seccomp filter refuses keyrings altogether
/// (``meansUnavailable``: `ENOSYS`, `EPERM`, `EACCES`, common in containers) SecStore falls
/// back to process memory for good. Anything else — above all ``meansQuotaExceeded``
/// (`EDQUOT`: the user's key quota, `/proc/sys/kernel/keys/maxkeys` and `maxbytes`, is full) —
/// refuses one attempt: its keys stay in this process, and nothing of it is shared.
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

    /// A refusal with this `errno`.
    public init(errno: Int32) {
        self.errno = errno
    }

    /// The kernel or a seccomp filter refuses keyrings altogether (`ENOSYS`, `EPERM`, `EACCES`).
    public var meansUnavailable: Bool { [ENOSYS, EPERM, EACCES].contains(errno) }

    /// The user's key quota is full (`EDQUOT`): too many keys, or too many bytes, for this
    /// user (`/proc/sys/kernel/keys/maxkeys`, `maxbytes`; `root_maxkeys`, `root_maxbytes` for root).
    public var meansQuotaExceeded: Bool { errno == EDQUOT }

    /// What happened, in words, with the errno's name: "the user's key quota is full (EDQUOT)".
    public var description: String {
        let name = Self.names[errno].map { "(\($0))" } ?? "(errno \(errno))"
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

/// The Linux kernel's per-user keyring (`add_key(2)`, `keyctl(2)`): kernel memory that
/// every process of the user can reach, never written to disk, gone at reboot.
/// The only file that touches `CKeyring`.
enum KernelKeyring {
    /// Why a keyring call failed: the `errno`.
    struct Failure: Error {
        let errno: Int32

        /// The kernel or a seccomp filter refuses keyrings altogether (common in containers).
        var meansUnavailable: Bool { refusal.meansUnavailable }
        /// No key by that description.
        var meansMissing: Bool { [ENOKEY, EKEYEXPIRED, EKEYREVOKED, ENOENT].contains(errno) }
        /// The public value of this failure.
        var refusal: KeyringRefusal { KeyringRefusal(errno: errno) }
    }

    /// Possessor: everything; same user: view, read, search. Set explicitly because a
    /// process in another login session does not possess the user keyring's keys.
    private static let permissions: UInt32 = 0x3F00_0000 | 0x0001_0000 | 0x0002_0000 | 0x0008_0000

    /// Adds (or replaces) the key `description`; with `timeout`, the kernel expires it after
    /// that many seconds, whether or not any SecStore process is still running.
    ///
    /// The key is made in this thread's keyring, given its permissions and its timeout there,
    /// and only then linked into the user keyring (displacing a key of the same description):
    /// a process killed half-way leaves nothing, where a key added to the user keyring first
    /// and timed after could stay without a timeout until reboot.
    static func add(description: String, payload: [UInt8], timeout seconds: UInt32? = nil) throws(Failure) {
        let added = payload.withUnsafeBytes { bytes in
            ckeyring_add_user_key(description, bytes.baseAddress, bytes.count, CKEYRING_THREAD_KEYRING)
        }
        guard added > 0 else { throw Failure(errno: Int32(-added)) }
        let serial = Int32(added)
        // The thread keyring's link is only for the making: the user keyring's is the one kept.
        defer { _ = ckeyring_unlink(serial, CKEYRING_THREAD_KEYRING) }
        let status = ckeyring_set_permissions(serial, permissions)
        guard status >= 0 else {
            _ = ckeyring_invalidate(serial)   // never leave a key behind on failure
            throw Failure(errno: Int32(-status))
        }
        if let seconds {
            let timed = ckeyring_set_timeout(serial, max(seconds, 1))
            guard timed >= 0 else {
                // A key that cannot expire must not stay: take it back.
                _ = ckeyring_invalidate(serial)
                throw Failure(errno: Int32(-timed))
            }
        }
        let linked = ckeyring_link(serial, CKEYRING_USER_KEYRING)
        guard linked >= 0 else {
            _ = ckeyring_invalidate(serial)
            throw Failure(errno: Int32(-linked))
        }
    }

    static func read(description: String) throws(Failure) -> [UInt8] {
        let serial = ckeyring_search_user_key(CKEYRING_USER_KEYRING, description)
        guard serial > 0 else { throw Failure(errno: Int32(-serial)) }
        return try read(serial: Int32(serial))
    }

    /// Whether the user keyring holds a key `description` that this process may see.
    static func exists(description: String) -> Bool {
        ckeyring_search_user_key(CKEYRING_USER_KEYRING, description) > 0
    }

    static func remove(description: String) {
        let serial = ckeyring_search_user_key(CKEYRING_USER_KEYRING, description)
        if serial > 0 { _ = ckeyring_invalidate(Int32(serial)) }
    }

    // MARK: Enumerating the user keyring

    /// A key linked in the user keyring, as `KEYCTL_DESCRIBE` tells it.
    struct Described {
        let serial: Int32
        let type: String
        let uid: UInt32
        let description: String
    }

    /// Every key linked in the calling user's keyring, with its type and description (never
    /// its payload). Keys that vanish or cannot be viewed meanwhile are left out.
    static func userKeys() throws(Failure) -> [Described] {
        let bytes: [UInt8]
        do {
            bytes = try read(serial: CKEYRING_USER_KEYRING)
        } catch where error.meansMissing {
            return []   // no user keyring (it could not be created): no keys in it
        }
        // In the kernel's (the machine's) byte order.
        let serials = bytes.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count - raw.count % 4, by: 4).map { raw.loadUnaligned(fromByteOffset: $0, as: Int32.self) }
        }
        return serials.compactMap(describe)
    }

    /// "type;uid;gid;perm;description" split up, or nil when the key is gone or not viewable.
    private static func describe(_ serial: Int32) -> Described? {
        var buffer = [CChar](repeating: 0, count: 512)
        while true {
            let length = buffer.withUnsafeMutableBufferPointer { ckeyring_describe(serial, $0.baseAddress, $0.count) }
            guard length > 0 else { return nil }
            if length <= buffer.count { break }
            buffer = [CChar](repeating: 0, count: length)
        }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The description is last and may itself contain ';'.
        let fields = text.split(separator: ";", maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5, let uid = UInt32(fields[1]) else { return nil }
        return Described(serial: serial, type: String(fields[0]), uid: uid, description: String(fields[4]))
    }

    /// The payload of key `serial` (for a keyring: the serials of its keys), however long.
    static func read(serial: Int32) throws(Failure) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let length = buffer.withUnsafeMutableBytes { ckeyring_read(serial, $0.baseAddress, $0.count) }
            guard length >= 0 else { throw Failure(errno: Int32(-length)) }
            if length <= buffer.count {
                buffer.removeSubrange(length...)
                return buffer
            }
            // It grew, or was larger than the first guess: ask again with room for all of it.
            buffer = [UInt8](repeating: 0, count: length)
        }
    }

    /// Makes key `serial` disappear at once for every process.
    static func invalidate(serial: Int32) throws(Failure) {
        let status = ckeyring_invalidate(serial)
        guard status >= 0 else { throw Failure(errno: Int32(-status)) }
    }

    // MARK: For tests that need a real quota

    /// Adds a key to this process's own keyring (gone when the process exits) and returns its
    /// serial. With ``give(serial:to:)``, tests fill another user's real key quota.
    static func addToProcessKeyring(description: String, payload: [UInt8]) throws(Failure) -> Int32 {
        let serial = payload.withUnsafeBytes { bytes in
            ckeyring_add_user_key(description, bytes.baseAddress, bytes.count, CKEYRING_PROCESS_KEYRING)
        }
        guard serial > 0 else { throw Failure(errno: Int32(-serial)) }
        return Int32(serial)
    }

    /// Gives key `serial`, and its share of the key quota, to `uid` (`KEYCTL_CHOWN`; needs
    /// `CAP_SYS_ADMIN`). Fails with `EDQUOT` once `uid`'s quota cannot take it.
    static func give(serial: Int32, to uid: UInt32) throws(Failure) {
        let status = ckeyring_chown(serial, uid)
        guard status >= 0 else { throw Failure(errno: Int32(-status)) }
    }
}
