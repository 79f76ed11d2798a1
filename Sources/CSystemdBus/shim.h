// sd-bus, libsystemd's D-Bus library, for the Secret Service provider (issue 17).
// Wrapped in one place: Sources/SecretService/Bus. Only the non-variadic calls import into
// Swift, so messages are read and written one basic value or container at a time.
#include <systemd/sd-bus.h>
#include <dlfcn.h>
#include <errno.h>
#include <linux/memfd.h>
#include <sys/syscall.h>
#include <unistd.h>

// `sd_bus_message_sensitive` (libsystemd zeroes the message's memory when it frees it) arrived
// in systemd 247; Ubuntu 20.04 has 245. Looked up at run time, so that the package builds and
// the provider runs with either: -ENOSYS where libsystemd lacks it. A null handle is
// RTLD_DEFAULT on glibc (which names it only under _GNU_SOURCE): every loaded library.
typedef int (*csystemdbus_sensitive_function)(sd_bus_message *);

static inline csystemdbus_sensitive_function csystemdbus_sensitive_lookup(void) {
    static csystemdbus_sensitive_function found;
    static int looked;
    if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&found, (csystemdbus_sensitive_function)dlsym((void *)0, "sd_bus_message_sensitive"), __ATOMIC_RELAXED);
        __atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
    }
    return __atomic_load_n(&found, __ATOMIC_RELAXED);
}

// Whether this libsystemd can mark messages sensitive.
static inline int csystemdbus_can_mark_sensitive(void) {
    return csystemdbus_sensitive_lookup() != 0;
}

// Marks `message` sensitive; -ENOSYS where libsystemd cannot.
static inline int csystemdbus_message_sensitive(sd_bus_message *message) {
    csystemdbus_sensitive_function sensitive = csystemdbus_sensitive_lookup();
    return sensitive ? sensitive(message) : -ENOSYS;
}

// A new memfd (an anonymous file in kernel memory) that sd-bus can seal
// (`sd_bus_message_append_array_memfd` seals it: no writable mapping may exist then). Through
// syscall(2), since glibc names memfd_create only under _GNU_SOURCE. The descriptor, or -errno.
static inline int csystemdbus_memfd_create(const char *name) {
    long result = syscall(SYS_memfd_create, name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    return result < 0 ? -errno : (int)result;
}
