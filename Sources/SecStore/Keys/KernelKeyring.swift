internal import CKeyring

/// The Linux kernel's per-user keyring (`add_key(2)`, `keyctl(2)`): kernel memory that
/// every process of the user can reach, never written to disk, gone at reboot.
/// The only file that touches `CKeyring`.
enum KernelKeyring {
    /// Why a keyring call failed: the negated `errno`.
    struct Failure: Error {
        let errno: Int32

        /// The kernel or a seccomp filter refuses keyrings altogether (common in containers).
        var meansUnavailable: Bool { [38 /* ENOSYS */, 1 /* EPERM */, 13 /* EACCES */].contains(errno) }
        /// No key by that description.
        var meansMissing: Bool { [126 /* ENOKEY */, 127 /* EKEYEXPIRED */, 128 /* EKEYREVOKED */, 2 /* ENOENT */].contains(errno) }
    }

    /// Possessor: everything; same user: view, read, search. Set explicitly because a
    /// process in another login session does not possess the user keyring's keys.
    private static let permissions: UInt32 = 0x3F00_0000 | 0x0001_0000 | 0x0002_0000 | 0x0008_0000

    /// Adds (or replaces) the key `description`; with `timeout`, the kernel expires it after
    /// that many seconds, whether or not any SecStore process is still running.
    static func add(description: String, payload: [UInt8], timeout seconds: UInt32? = nil) throws(Failure) {
        let serial = payload.withUnsafeBytes { bytes in
            ckeyring_add_user_key(description, bytes.baseAddress, bytes.count, CKEYRING_USER_KEYRING)
        }
        guard serial > 0 else { throw Failure(errno: Int32(-serial)) }
        let status = ckeyring_set_permissions(Int32(serial), permissions)
        guard status >= 0 else {
            _ = ckeyring_invalidate(Int32(serial))   // never leave a key behind on failure
            throw Failure(errno: Int32(-status))
        }
        if let seconds {
            let timed = ckeyring_set_timeout(Int32(serial), max(seconds, 1))
            guard timed >= 0 else {
                // A key that cannot expire must not stay: take it back.
                _ = ckeyring_invalidate(Int32(serial))
                throw Failure(errno: Int32(-timed))
            }
        }
    }

    static func read(description: String) throws(Failure) -> [UInt8] {
        let serial = ckeyring_search_user_key(CKEYRING_USER_KEYRING, description)
        guard serial > 0 else { throw Failure(errno: Int32(-serial)) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBytes { ckeyring_read(Int32(serial), $0.baseAddress, $0.count) }
        guard length >= 0 else { throw Failure(errno: Int32(-length)) }
        guard length <= buffer.count else { throw Failure(errno: 90 /* EMSGSIZE */) }
        buffer.removeSubrange(length...)
        return buffer
    }

    static func remove(description: String) {
        let serial = ckeyring_search_user_key(CKEYRING_USER_KEYRING, description)
        if serial > 0 { _ = ckeyring_invalidate(Int32(serial)) }
    }
}
