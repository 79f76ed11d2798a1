#ifndef SECSTORE_CKEYRING_H
#define SECSTORE_CKEYRING_H

#include <stddef.h>
#include <stdint.h>

// The Linux kernel key-retention service (add_key(2), keyctl(2)) without libkeyutils.
// Swift cannot call the variadic syscall(2), so each operation gets one plain function.
// Every function returns -errno on failure.

/// KEY_SPEC_USER_KEYRING: the keyring shared by every process of the calling user.
#define CKEYRING_USER_KEYRING (-4)
/// KEY_SPEC_PROCESS_KEYRING: the calling process's own keyring, gone when the process exits.
#define CKEYRING_PROCESS_KEYRING (-2)
#define CKEYRING_THREAD_KEYRING (-1)

/// add_key("user", description, payload) into `keyring`; returns the key serial.
long ckeyring_add_user_key(const char *description, const void *payload, size_t length, int32_t keyring);

/// keyctl(KEYCTL_SEARCH, keyring, "user", description, 0); returns the key serial. The search
/// goes down into the keyrings linked in `keyring` that the caller may search.
long ckeyring_search_user_key(int32_t keyring, const char *description);

/// add_key("keyring", description, NULL, 0) into `keyring`: a new, empty keyring; returns its
/// serial. (A keyring cannot be updated: one of the same description in `keyring` is displaced.)
long ckeyring_add_keyring(const char *description, int32_t keyring);

/// keyctl(KEYCTL_SEARCH, keyring, "keyring", description, 0); returns the keyring's serial.
long ckeyring_search_keyring(int32_t keyring, const char *description);

/// keyctl(KEYCTL_READ, key, buffer, length); returns the payload's full length. On a keyring,
/// the payload is the serials (int32_t) of the keys linked in it.
long ckeyring_read(int32_t key, void *buffer, size_t length);

/// keyctl(KEYCTL_SETPERM, key, permissions).
long ckeyring_set_permissions(int32_t key, uint32_t permissions);

/// keyctl(KEYCTL_INVALIDATE, key): the key disappears at once for every process.
long ckeyring_invalidate(int32_t key);

/// keyctl(KEYCTL_SET_TIMEOUT, key, seconds): the kernel expires the key after `seconds`.
long ckeyring_set_timeout(int32_t key, uint32_t seconds);

/// keyctl(KEYCTL_DESCRIBE, key, buffer, length): "type;uid;gid;perm;description" and a NUL;
/// returns the full length, NUL included.
long ckeyring_describe(int32_t key, char *buffer, size_t length);

/// keyctl(KEYCTL_CHOWN, key, uid, -1): gives the key (and its quota burden) to `uid`. Needs
/// CAP_SYS_ADMIN; fails with EDQUOT when `uid`'s key quota cannot take it.
long ckeyring_chown(int32_t key, uint32_t uid);

long ckeyring_link(int32_t key, int32_t keyring);

long ckeyring_unlink(int32_t key, int32_t keyring);

#endif
