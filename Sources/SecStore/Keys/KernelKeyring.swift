internal import CKeyring
import Glibc

/// The Linux kernel's per-user keyring (`add_key(2)`, `keyctl(2)`): kernel memory that
/// every process of the user can reach, never written to disk, gone at reboot.
/// The only file that touches `CKeyring`.
enum KernelKeyring {
    /// Why a keyring call failed: the `errno`.
    struct Failure: Error {
        let errno: Int32
        /// The keyring the key was to be linked into is gone: invalidated since it was found or
        /// made (`secstore lock`, `secstore keyring prune`).
        var keyringGone = false

        /// The kernel or a seccomp filter refuses keyrings altogether (common in containers).
        var meansUnavailable: Bool { refusal.meansUnavailable }
        /// No key by that description.
        var meansMissing: Bool { [ENOKEY, EKEYEXPIRED, EKEYREVOKED, ENOENT].contains(errno) }
        /// The public value of this failure.
        var refusal: KeyringRefusal { KeyringRefusal(errno: errno, lockedMeanwhile: keyringGone) }
    }

    /// The user keyring (`@u`), shared by every process of the user.
    static let userKeyring: Int32 = CKEYRING_USER_KEYRING

    /// Possessor: everything; same user: view, read, search. Set explicitly because a
    /// process in another login session does not possess the user keyring's keys.
    private static let permissions: UInt32 = 0x3F00_0000 | 0x0001_0000 | 0x0002_0000 | 0x0008_0000
    /// A keyring's: the same, and write for the same user, so that a process in another login
    /// session can link keys into it too (linking needs write on the keyring).
    private static let keyringPermissions: UInt32 = permissions | 0x0004_0000

    /// Adds (or replaces) the key `description` in `keyring` (the user keyring, or a keyring
    /// linked in it); with `timeout`, the kernel expires it after that many seconds, whether or
    /// not any SecStore process is still running. Returns the key's serial.
    ///
    /// The key is made in this thread's keyring, given its permissions and its timeout there,
    /// and only then linked into `keyring` (displacing a key of the same description): a
    /// process killed half-way leaves nothing, where a key added to the user keyring first
    /// and timed after could stay without a timeout until reboot. When `keyring` is gone by
    /// then (invalidated meanwhile), the failure says so (``Failure/keyringGone``) and the key
    /// goes too.
    @discardableResult
    static func add(description: String, payload: [UInt8], timeout seconds: UInt32? = nil,
                    into keyring: Int32 = userKeyring) throws(Failure) -> Int32 {
        let added = payload.withUnsafeBytes { bytes in
            ckeyring_add_user_key(description, bytes.baseAddress, bytes.count, CKEYRING_THREAD_KEYRING)
        }
        guard added > 0 else { throw Failure(errno: Int32(-added)) }
        let serial = Int32(added)
        // The thread keyring's link is only for the making: the destination's is the one kept.
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
        let linked = ckeyring_link(serial, keyring)
        guard linked >= 0 else {
            _ = ckeyring_invalidate(serial)
            var failure = Failure(errno: Int32(-linked))
            failure.keyringGone = keyring != userKeyring && failure.meansMissing
            throw failure
        }
        return serial
    }

    /// The keyring `description` found in the user keyring (or below it), or else a new, empty
    /// one: made in this thread's keyring, given its permissions there (``keyringPermissions``),
    /// and only then linked into the user keyring. Returns its serial.
    ///
    /// Two processes that find none at the same moment both make one, and the later link
    /// displaces the earlier keyring (a keyring cannot be updated in place): keys then linked
    /// into the displaced one fail with ``Failure/keyringGone``, as after an invalidation.
    static func keyring(named description: String) throws(Failure) -> Int32 {
        let found = ckeyring_search_keyring(CKEYRING_USER_KEYRING, description)
        if found > 0 { return Int32(found) }
        let missing = Failure(errno: Int32(-found))
        guard missing.meansMissing else { throw missing }
        let made = ckeyring_add_keyring(description, CKEYRING_THREAD_KEYRING)
        guard made > 0 else { throw Failure(errno: Int32(-made)) }
        let serial = Int32(made)
        defer { _ = ckeyring_unlink(serial, CKEYRING_THREAD_KEYRING) }
        let status = ckeyring_set_permissions(serial, keyringPermissions)
        guard status >= 0 else {
            _ = ckeyring_invalidate(serial)
            throw Failure(errno: Int32(-status))
        }
        let linked = ckeyring_link(serial, CKEYRING_USER_KEYRING)
        guard linked >= 0 else {
            _ = ckeyring_invalidate(serial)
            throw Failure(errno: Int32(-linked))
        }
        return serial
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

    /// Invalidates every key `description` this process may see. A name can be held twice:
    /// in the store's keyring and straight in the user keyring, where an older SecStore links
    /// its entries; a search finds one at a time, and an invalidated key is found no more.
    /// Bounded, in case a key cannot be invalidated (it then stays found).
    static func remove(description: String) {
        for _ in 0..<maximumCopies {
            let serial = ckeyring_search_user_key(CKEYRING_USER_KEYRING, description)
            guard serial > 0, ckeyring_invalidate(Int32(serial)) == 0 else { return }
        }
    }

    /// How many keys of one name ``remove(description:)`` removes at most: a store's keyring
    /// and the user keyring hold one each; more is someone else's doing.
    private static let maximumCopies = 8

    // MARK: Enumerating the user keyring

    /// A key linked in the user keyring, or in a keyring linked there, as `KEYCTL_DESCRIBE`
    /// tells it.
    struct Described {
        let serial: Int32
        let type: String
        let uid: UInt32
        let description: String
        /// The keyring it was found in: ``userKeyring``, or the serial of a keyring linked there.
        let parent: Int32
    }

    /// Every key linked in the calling user's keyring, with its type and description (never
    /// its payload) — and those linked in each keyring there that `descendingInto` accepts,
    /// one level down. Keys that vanish or cannot be viewed meanwhile are left out.
    static func userKeys(descendingInto: (Described) -> Bool = { _ in false }) throws(Failure) -> [Described] {
        var keys: [Described]
        do {
            keys = try linked(in: CKEYRING_USER_KEYRING)
        } catch where error.meansMissing {
            return []   // no user keyring (it could not be created): no keys in it
        }
        for keyring in keys where keyring.type == "keyring" && descendingInto(keyring) {
            // Gone meanwhile: its keys went with it.
            keys += (try? linked(in: keyring.serial)) ?? []
        }
        return keys
    }

    /// The keys linked in `keyring`, described.
    private static func linked(in keyring: Int32) throws(Failure) -> [Described] {
        let bytes = try read(serial: keyring)
        // In the kernel's (the machine's) byte order.
        let serials = bytes.withUnsafeBytes { raw in
            stride(from: 0, to: raw.count - raw.count % 4, by: 4).map { raw.loadUnaligned(fromByteOffset: $0, as: Int32.self) }
        }
        return serials.compactMap { describe($0, in: keyring) }
    }

    /// "type;uid;gid;perm;description" split up, or nil when the key is gone or not viewable.
    private static func describe(_ serial: Int32, in parent: Int32) -> Described? {
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
        return Described(serial: serial, type: String(fields[0]), uid: uid, description: String(fields[4]), parent: parent)
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
    /// Moves key `serial` from the user keyring into `keyring`: linked there, then unlinked from
    /// the user keyring.
    static func move(serial: Int32, fromUserKeyringInto keyring: Int32) throws(Failure) {
        let linked = ckeyring_link(serial, keyring)
        guard linked >= 0 else { throw Failure(errno: Int32(-linked)) }
        _ = ckeyring_unlink(serial, CKEYRING_USER_KEYRING)
    }

    /// Whether `keyring` (or a keyring in it) holds a user key `description`.
    static func holds(_ keyring: Int32, description: String) -> Bool {
        ckeyring_search_user_key(keyring, description) > 0
    }

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
