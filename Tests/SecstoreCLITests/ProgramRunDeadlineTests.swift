import Foundation
import SecStoreTestSupport
import Testing

/// The deadline of ``ProgramRun`` (test support), which every real-client test relies on to turn
/// a client that hangs into a failure instead of a hung suite.
@Suite struct ProgramRunDeadlineTests {
    /// Before: the deadline sent SIGTERM, which a program started from a test's thread has
    /// blocked (the thread's signal mask is inherited): `sleep 30` ran its 30 seconds and
    /// exited 0, the deadline not felt.
    @Test func aProgramPastItsDeadlineIsStopped() throws {
        let started = Date()
        let result = try ProgramRun.run(URL(filePath: "/bin/sleep"), ["30"], environment: [:], timeout: 1)
        #expect(result.timedOut)
        #expect(result.status == SIGKILL, "\(result)")
        #expect(Date().timeIntervalSince(started) < 20)
    }
}
