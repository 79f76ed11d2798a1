#include "CKeyring.h"

#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>

#define CKEYRING_KEYCTL_CHOWN 4
#define CKEYRING_KEYCTL_SETPERM 5
#define CKEYRING_KEYCTL_DESCRIBE 6
#define CKEYRING_KEYCTL_SET_TIMEOUT 15
#define CKEYRING_KEYCTL_SEARCH 10
#define CKEYRING_KEYCTL_READ 11
#define CKEYRING_KEYCTL_INVALIDATE 21
#define CKEYRING_KEYCTL_LINK 8
#define CKEYRING_KEYCTL_UNLINK 9

static long result(long value) {
    return value < 0 ? -errno : value;
}

long ckeyring_add_user_key(const char *description, const void *payload, size_t length, int32_t keyring) {
#ifdef SYS_add_key
    return result(syscall(SYS_add_key, "user", description, payload, length, keyring));
#else
    return -ENOSYS;
#endif
}

long ckeyring_search_user_key(int32_t keyring, const char *description) {
#ifdef SYS_keyctl
    return result(syscall(SYS_keyctl, CKEYRING_KEYCTL_SEARCH, keyring, "user", description, 0));
#else
    return -ENOSYS;
#endif
}

long ckeyring_add_keyring(const char *description, int32_t keyring) {
#ifdef SYS_add_key
    return result(syscall(SYS_add_key, "keyring", description, NULL, (size_t)0, keyring));
#else
    return -ENOSYS;
#endif
}

long ckeyring_search_keyring(int32_t keyring, const char *description) {
#ifdef SYS_keyctl
    return result(syscall(SYS_keyctl, CKEYRING_KEYCTL_SEARCH, keyring, "keyring", description, 0));
#else
    return -ENOSYS;
#endif
}

long ckeyring_read(int32_t key, void *buffer, size_t length) {
#ifdef SYS_keyctl
    return result(syscall(SYS_keyctl, CKEYRING_KEYCTL_READ, key, buffer, length));
#else
    return -ENOSYS;
#endif
}

long ckeyring_set_permissions(int32_t key, uint32_t permissions) {
#ifdef SYS_keyctl
    return result(syscall(SYS_keyctl, CKEYRING_KEYCTL_SETPERM, key, permissions));
#else
    return -ENOSYS;
#endif
}

long ckeyring_invalidate(int32_t key) {
#ifdef SYS_keyctl
    return result(syscall(SYS_keyctl, CKEYRING_KEYCTL_INVALIDATE, key));
#else
    return -ENOSYS;
#endif
}

long ckeyring_set_timeout(int32_t key, uint32_t seconds) {
#ifdef SYS_keyctl
    return result(syscall(SYS_keyctl, CKEYRING_KEYCTL_SET_TIMEOUT, key, seconds));
#else
    return -ENOSYS;
#endif
}

long ckeyring_describe(int32_t key, char *buffer, size_t length) {
#ifdef SYS_keyctl
    return result(syscall(SYS_keyctl, CKEYRING_KEYCTL_DESCRIBE, key, buffer, length));
#else
    return -ENOSYS;
#endif
}

long ckeyring_chown(int32_t key, uint32_t uid) {
#ifdef SYS_keyctl
    return result(syscall(SYS_keyctl, CKEYRING_KEYCTL_CHOWN, key, uid, (uint32_t)-1));
#else
    return -ENOSYS;
#endif
}

long ckeyring_link(int32_t key, int32_t keyring) {
#ifdef SYS_keyctl
    return result(syscall(SYS_keyctl, CKEYRING_KEYCTL_LINK, key, keyring));
#else
    return -ENOSYS;
#endif
}

long ckeyring_unlink(int32_t key, int32_t keyring) {
#ifdef SYS_keyctl
    return result(syscall(SYS_keyctl, CKEYRING_KEYCTL_UNLINK, key, keyring));
#else
    return -ENOSYS;
#endif
}
