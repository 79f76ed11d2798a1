#if canImport(Glibc)
import Glibc
#endif

/// Runs `body` with SIGPIPE blocked on the calling thread, and discards a SIGPIPE it raised.
///
/// OpenSSL writes to its socket with write(2), not send(2) with MSG_NOSIGNAL, so a member that
/// dies between our reads and writes would otherwise kill the whole process with SIGPIPE (the
/// write fails with EPIPE instead, a transport failure like any other). The mask is per thread
/// and restored after, so nothing else in the process is affected.
enum EtcdNoSIGPIPE {
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipe, &previous)
        defer {
            // A SIGPIPE raised meanwhile is pending on this thread: take it before unblocking.
            var pending = sigset_t()
            if sigpending(&pending) == 0, sigismember(&pending, SIGPIPE) == 1 {
                var zero = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipe, nil, &zero)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return try body()
    }
}
