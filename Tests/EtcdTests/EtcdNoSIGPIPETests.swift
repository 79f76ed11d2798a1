import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import Etcd

extension EtcdTests {
    /// OpenSSL writes with write(2): without the guard every TLS exchange runs under, a member
    /// gone between two writes raises SIGPIPE, which kills the whole process (this test process
    /// died of signal 13 doing the same write unguarded).
    @Suite struct NoSIGPIPE {
        @Test func aWriteToAClosedPipeFailsWithEPIPEInsteadOfKillingTheProcess() {
            var ends: [Int32] = [0, 0]
            #expect(pipe(&ends) == 0)
            close(ends[0])
            defer { close(ends[1]) }
            let (written, error) = EtcdNoSIGPIPE.run { (write(ends[1], "x", 1), errno) }
            #expect(written == -1 && error == EPIPE)
            // Nothing is left pending for the thread once the guard is gone.
            var pending = sigset_t()
            sigpending(&pending)
            #expect(sigismember(&pending, SIGPIPE) == 0)
        }
    }
}
