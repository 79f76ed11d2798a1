// Fault injection at the system boundary (issue 15, item 5): an LD_PRELOAD library that makes
// chosen file calls fail, for the tests and scripts/fault-injection.sh. Built on demand:
//
//   cc -shared -fPIC -O1 -o libfaultinject.so Tests/FaultInjection/faultinject.c -ldl
//   LD_PRELOAD=$PWD/libfaultinject.so FI_CALL=write FI_PATH=.secstore-wal FI_NTH=2 FI_ERRNO=ENOSPC secstore add …
//
// Environment:
//   FI_CALL   the call to fail: open, read, write, fsync, rename, link, unlink, truncate, mkdir
//             (read is read(2) alone, and only when named: `all` leaves reads out, so the
//             writers' call counts stay what they were; write covers
//             write/pwrite/pwrite64/writev; fsync covers fsync/fdatasync;
//             open covers open/open64/openat/openat64/creat and their _2 forms; rename
//             covers rename/renameat/renameat2; link covers link/linkat); `all` with
//             FI_NTH=0 logs every kind, to count a run's calls before failing each)
//   FI_PATH   a substring of the file's path (for descriptor calls: its /proc/self/fd link);
//             empty or unset matches every path
//   FI_NTH    fail the N-th matching call (1-based; 0 or unset: count only, never fail)
//   FI_TIMES  how many matching calls to fail from the N-th on (default 1; -1: all later ones)
//   FI_ERRNO  ENOSPC, EIO, EDQUOT, EACCES, EROFS, EPERM, EINTR, or "short": a write writes
//             half its bytes (at least one) and returns that count, as a full disk may; or
//             "stop": the process stops itself (SIGSTOP) before the call and, when continued,
//             makes it — a test kills it there, in the middle of a write (kill -9)
//   FI_LOG    a file that receives one line per matching call (`<call> <n> <path> <injected>`),
//             for the tests to count the calls of a run before they fail each one
//
// Nothing else is touched: getrandom, pread and other reads, the kernel keyring, mmap and sockets go
// through untouched, and without FI_CALL every call goes straight to libc.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static atomic_long matched;
static int configured;
static const char *wantedCall;
static const char *wantedPath;
static long nth;
static long times = 1;
static int injectedErrno;
static int shortWrite;
static int stopHere;
static const char *logPath;

static void configure(void) {
    if (configured) return;
    wantedCall = getenv("FI_CALL");
    wantedPath = getenv("FI_PATH");
    const char *n = getenv("FI_NTH");
    nth = n ? atol(n) : 0;
    const char *t = getenv("FI_TIMES");
    times = t ? atol(t) : 1;
    const char *e = getenv("FI_ERRNO");
    injectedErrno = EIO;
    if (e) {
        if (!strcmp(e, "ENOSPC")) injectedErrno = ENOSPC;
        else if (!strcmp(e, "EIO")) injectedErrno = EIO;
        else if (!strcmp(e, "EDQUOT")) injectedErrno = EDQUOT;
        else if (!strcmp(e, "EACCES")) injectedErrno = EACCES;
        else if (!strcmp(e, "EROFS")) injectedErrno = EROFS;
        else if (!strcmp(e, "EPERM")) injectedErrno = EPERM;
        else if (!strcmp(e, "EINTR")) injectedErrno = EINTR;
        else if (!strcmp(e, "stop")) stopHere = 1;
        else if (!strcmp(e, "short")) shortWrite = 1;
    }
    logPath = getenv("FI_LOG");
    configured = 1;
}

static void *real(const char *name) {
    void *symbol = dlsym(RTLD_NEXT, name);
    if (!symbol) {
        static const char message[] = "faultinject: a libc symbol is missing\n";
        ssize_t ignored = syscall(SYS_write, 2, message, sizeof message - 1);   // not through ourselves
        (void)ignored;
        _exit(127);
    }
    return symbol;
}

#define REAL(type, name) static __typeof__(type) real_##name; if (!real_##name) real_##name = (__typeof__(type))real(#name)

static void logLine(const char *call, long n, const char *path, int injected) {
    if (!logPath) return;
    REAL(int (*)(const char *, int, ...), open);
    REAL(ssize_t (*)(int, const void *, size_t), write);
    int fd = real_open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) return;
    char line[4600];
    int length = snprintf(line, sizeof line, "%s %ld %s %s\n", call, n, path ? path : "-", injected ? "injected" : "passed");
    if (length > 0) {
        ssize_t ignored = real_write(fd, line, (size_t)(length < (int)sizeof line ? length : (int)sizeof line - 1));
        (void)ignored;
    }
    REAL(int (*)(int), close);
    real_close(fd);
}

static int pathMatches(const char *path) {
    if (!wantedPath || !*wantedPath) return 1;
    return path && strstr(path, wantedPath) != NULL;
}

/// Whether this call (of kind `call`, on `path`) is to fail; counts the matching ones.
static int shouldFail(const char *call, const char *path) {
    configure();
    int all = wantedCall && strcmp(wantedCall, "all") == 0;
    if (!wantedCall || (!all && strcmp(wantedCall, call) != 0) || !pathMatches(path)) return 0;
    if (all) {   // counting every kind for a calibration run: never fails
        logLine(call, 0, path, 0);
        return 0;
    }
    long n = atomic_fetch_add(&matched, 1) + 1;
    int inject = nth > 0 && n >= nth && (times < 0 || n < nth + times);
    logLine(call, n, path, inject);
    if (inject && stopHere) {   // stopped mid-operation for the test to kill; the call then proceeds
        raise(SIGSTOP);
        return 0;
    }
    return inject;
}

static const char *descriptorPath(int fd, char *buffer, size_t size) {
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, buffer, size - 1);
    if (n < 0) return NULL;
    buffer[n] = 0;
    return buffer;
}

static int shouldFailDescriptor(const char *call, int fd) {
    configure();
    if (!wantedCall || (strcmp(wantedCall, call) != 0 && strcmp(wantedCall, "all") != 0)) return 0;
    char buffer[4096];
    return shouldFail(call, descriptorPath(fd, buffer, sizeof buffer));
}

// MARK: open

static int openMode(int flags, va_list arguments) {
    return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE ? va_arg(arguments, int) : 0;
}

#define OPEN_WRAPPER(name)                                                     \
    int name(const char *path, int flags, ...) {                               \
        va_list arguments;                                                     \
        va_start(arguments, flags);                                            \
        int mode = openMode(flags, arguments);                                 \
        va_end(arguments);                                                     \
        if (shouldFail("open", path)) { errno = injectedErrno; return -1; }    \
        REAL(int (*)(const char *, int, ...), name);                           \
        return real_##name(path, flags, mode);                                 \
    }
OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

#define OPENAT_WRAPPER(name)                                                   \
    int name(int directory, const char *path, int flags, ...) {                \
        va_list arguments;                                                     \
        va_start(arguments, flags);                                            \
        int mode = openMode(flags, arguments);                                 \
        va_end(arguments);                                                     \
        if (shouldFail("open", path)) { errno = injectedErrno; return -1; }    \
        REAL(int (*)(int, const char *, int, ...), name);                      \
        return real_##name(directory, path, flags, mode);                      \
    }
OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)

int __open_2(const char *path, int flags) {
    if (shouldFail("open", path)) { errno = injectedErrno; return -1; }
    REAL(int (*)(const char *, int), __open_2);
    return real___open_2(path, flags);
}
int __open64_2(const char *path, int flags) {
    if (shouldFail("open", path)) { errno = injectedErrno; return -1; }
    REAL(int (*)(const char *, int), __open64_2);
    return real___open64_2(path, flags);
}
int __openat_2(int directory, const char *path, int flags) {
    if (shouldFail("open", path)) { errno = injectedErrno; return -1; }
    REAL(int (*)(int, const char *, int), __openat_2);
    return real___openat_2(directory, path, flags);
}
int creat(const char *path, mode_t mode) {
    if (shouldFail("open", path)) { errno = injectedErrno; return -1; }
    REAL(int (*)(const char *, mode_t), creat);
    return real_creat(path, mode);
}

// MARK: read

ssize_t read(int fd, void *bytes, size_t count) {
    REAL(ssize_t (*)(int, void *, size_t), read);
    configure();
    // Only when named: `all` counts the writers' calls, and reads are not among them.
    if (fd > 2 && wantedCall && !strcmp(wantedCall, "read") && shouldFailDescriptor("read", fd)) {
        errno = injectedErrno;
        return -1;
    }
    return real_read(fd, bytes, count);
}

// MARK: write

ssize_t write(int fd, const void *bytes, size_t count) {
    REAL(ssize_t (*)(int, const void *, size_t), write);
    if (fd > 2 && shouldFailDescriptor("write", fd)) {
        if (!shortWrite) { errno = injectedErrno; return -1; }
        if (count > 1) return real_write(fd, bytes, count / 2);
    }
    return real_write(fd, bytes, count);
}

#define PWRITE_WRAPPER(name, offsetType)                                                     \
    ssize_t name(int fd, const void *bytes, size_t count, offsetType offset) {               \
        REAL(ssize_t (*)(int, const void *, size_t, offsetType), name);                      \
        if (shouldFailDescriptor("write", fd)) {                                             \
            if (!shortWrite) { errno = injectedErrno; return -1; }                           \
            if (count > 1) return real_##name(fd, bytes, count / 2, offset);                 \
        }                                                                                    \
        return real_##name(fd, bytes, count, offset);                                        \
    }
PWRITE_WRAPPER(pwrite, off_t)
PWRITE_WRAPPER(pwrite64, off64_t)

ssize_t writev(int fd, const struct iovec *vectors, int count) {
    REAL(ssize_t (*)(int, const struct iovec *, int), writev);
    if (fd > 2 && shouldFailDescriptor("write", fd)) {
        if (!shortWrite) { errno = injectedErrno; return -1; }
        if (count > 0 && vectors[0].iov_len > 1) {
            struct iovec half = { vectors[0].iov_base, vectors[0].iov_len / 2 };
            return real_writev(fd, &half, 1);
        }
    }
    return real_writev(fd, vectors, count);
}

// MARK: sync, truncate

int fsync(int fd) {
    if (shouldFailDescriptor("fsync", fd)) { errno = injectedErrno == ENOSPC || injectedErrno == EDQUOT || injectedErrno == EIO ? injectedErrno : EIO; return -1; }
    REAL(int (*)(int), fsync);
    return real_fsync(fd);
}
int fdatasync(int fd) {
    if (shouldFailDescriptor("fsync", fd)) { errno = injectedErrno == ENOSPC || injectedErrno == EDQUOT || injectedErrno == EIO ? injectedErrno : EIO; return -1; }
    REAL(int (*)(int), fdatasync);
    return real_fdatasync(fd);
}
int ftruncate(int fd, off_t length) {
    if (shouldFailDescriptor("truncate", fd)) { errno = injectedErrno; return -1; }
    REAL(int (*)(int, off_t), ftruncate);
    return real_ftruncate(fd, length);
}
int ftruncate64(int fd, off64_t length) {
    if (shouldFailDescriptor("truncate", fd)) { errno = injectedErrno; return -1; }
    REAL(int (*)(int, off64_t), ftruncate64);
    return real_ftruncate64(fd, length);
}

// MARK: names

int rename(const char *from, const char *to) {
    if (shouldFail("rename", to)) { errno = injectedErrno; return -1; }
    REAL(int (*)(const char *, const char *), rename);
    return real_rename(from, to);
}
int renameat(int fromDirectory, const char *from, int toDirectory, const char *to) {
    if (shouldFail("rename", to)) { errno = injectedErrno; return -1; }
    REAL(int (*)(int, const char *, int, const char *), renameat);
    return real_renameat(fromDirectory, from, toDirectory, to);
}
int renameat2(int fromDirectory, const char *from, int toDirectory, const char *to, unsigned int flags) {
    if (shouldFail("rename", to)) { errno = injectedErrno; return -1; }
    REAL(int (*)(int, const char *, int, const char *, unsigned int), renameat2);
    return real_renameat2(fromDirectory, from, toDirectory, to, flags);
}
int link(const char *from, const char *to) {
    if (shouldFail("link", to)) { errno = injectedErrno; return -1; }
    REAL(int (*)(const char *, const char *), link);
    return real_link(from, to);
}
int linkat(int fromDirectory, const char *from, int toDirectory, const char *to, int flags) {
    if (shouldFail("link", to)) { errno = injectedErrno; return -1; }
    REAL(int (*)(int, const char *, int, const char *, int), linkat);
    return real_linkat(fromDirectory, from, toDirectory, to, flags);
}
int unlink(const char *path) {
    if (shouldFail("unlink", path)) { errno = injectedErrno; return -1; }
    REAL(int (*)(const char *), unlink);
    return real_unlink(path);
}
int unlinkat(int directory, const char *path, int flags) {
    if (shouldFail("unlink", path)) { errno = injectedErrno; return -1; }
    REAL(int (*)(int, const char *, int), unlinkat);
    return real_unlinkat(directory, path, flags);
}
int mkdir(const char *path, mode_t mode) {
    if (shouldFail("mkdir", path)) { errno = injectedErrno; return -1; }
    REAL(int (*)(const char *, mode_t), mkdir);
    return real_mkdir(path, mode);
}
int mkdirat(int directory, const char *path, mode_t mode) {
    if (shouldFail("mkdir", path)) { errno = injectedErrno; return -1; }
    REAL(int (*)(int, const char *, mode_t), mkdirat);
    return real_mkdirat(directory, path, mode);
}
