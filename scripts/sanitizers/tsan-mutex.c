// Makes Swift's Synchronization.Mutex visible to ThreadSanitizer (scripts/sanitizers.sh thread
// preloads this into every process of the run; x86_64 Linux).
//
// Mutex's fast paths (an atomic compare-exchange to lock and to unlock) are inlined into the
// caller and instrumented, but a contended lock is taken in _MutexHandle._lockSlow, and a lock
// with waiters released in _MutexHandle._unlockSlow (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI), both in
// the toolchain's uninstrumented libswiftSynchronization.so. TSan never sees those acquires and
// releases, so every access under a contended Mutex, and every object published through one,
// is reported as a race (docs/reliability.md, "Sanitizers", has the program that shows it).
//
// This library interposes the two functions: it calls the original, then __tsan_acquire on the
// lock word after a slow lock, and __tsan_release on it before a slow unlock: the same
// synchronization TSan already sees on the fast paths, on the same address. A race between an
// access under a Mutex and one outside it is still reported. In a process without TSan the
// __tsan_ functions are absent (weak) and the wrappers only forward.
#define _GNU_SOURCE
#include <dlfcn.h>

#define LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"

__attribute__((weak)) void __tsan_acquire(void *address);
__attribute__((weak)) void __tsan_release(void *address);

__attribute__((visibility("hidden"))) void *tsan_mutex_original_lock;
__attribute__((visibility("hidden"))) void *tsan_mutex_original_unlock;

__attribute__((constructor)) static void resolve(void) {
    tsan_mutex_original_lock = dlsym(RTLD_NEXT, LOCK_SLOW);
    tsan_mutex_original_unlock = dlsym(RTLD_NEXT, UNLOCK_SLOW);
}

__attribute__((visibility("hidden"), used)) void tsan_mutex_acquire(void *handle) {
    if (__tsan_acquire) __tsan_acquire(handle);
}

__attribute__((visibility("hidden"), used)) void tsan_mutex_release(void *handle) {
    if (__tsan_release) __tsan_release(handle);
}

// `borrowing func _lockSlow(_ selfId: UInt32)`: selfId in edi, self (the address of the lock
// word) in r13, Swift's self register, which is callee-saved.
__attribute__((naked)) void lock_slow(void) __asm__(LOCK_SLOW);
__attribute__((naked)) void lock_slow(void) {
    __asm__ volatile(
        "push %r13\n"                               // self; the stack is 16-byte aligned again
        "call *tsan_mutex_original_lock(%rip)\n"    // edi and r13 as the caller set them
        "mov (%rsp), %rdi\n"
        "call tsan_mutex_acquire\n"
        "pop %r13\n"
        "ret\n");
}

// `borrowing func _unlockSlow()`: self in r13.
__attribute__((naked)) void unlock_slow(void) __asm__(UNLOCK_SLOW);
__attribute__((naked)) void unlock_slow(void) {
    __asm__ volatile(
        "push %r13\n"
        "mov %r13, %rdi\n"
        "call tsan_mutex_release\n"
        "mov (%rsp), %r13\n"
        "call *tsan_mutex_original_unlock(%rip)\n"
        "pop %r13\n"
        "ret\n");
}
