import Foundation
import Synchronization
import Testing
import SecStore

/// Store methods called from inside a `verify` progress callback, which runs while `verify`'s
/// own snapshot read holds a connection. Before, a read that found every snapshot connection
/// taken waited for one with no end: nested five deep on one thread, or on four threads at
/// once, `lockState` never returned (found by a helper session's audit).
@Suite struct NestedReadTests {
    /// Runs `body` on another thread and waits at most `seconds` for it: a hang is a failure,
    /// not a test run that never ends.
    private func finishes(within seconds: Int, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        return done.wait(timeout: .now() + .seconds(seconds)) == .success
    }

    @Test("verify nested five deep on one thread, the innermost asking lockState, answers")
    func verifyNestedOnOneThread() throws {
        let directory = TemporaryDirectory()
        let store = try directory.ownerStore("nested")
        try store.add(.genericPassword(service: "s", account: "a", data: Data("pw".utf8), accessGroup: "g"))
        let innermost = Mutex<LockState?>(nil)
        @Sendable func nest(_ depth: Int) throws {
            _ = try store.verify(progress: { _ in
                if depth < 5 { try? nest(depth + 1) } else { innermost.withLock { $0 = try? store.lockState } }
            })
        }
        #expect(finishes(within: 60) { try? nest(1) })
        #expect(innermost.withLock { $0 } == .noPassphrase)
    }

    @Test("four threads, each inside verify's progress callback, each asking lockState, all answer")
    func verifyCallbacksOnFourThreads() throws {
        let directory = TemporaryDirectory()
        let store = try directory.ownerStore("threads")
        try store.add(.genericPassword(service: "s", account: "a", data: Data("pw".utf8), accessGroup: "g"))
        let arrived = Atomic<Int>(0)
        let answers = Mutex<[LockState]>([])
        #expect(finishes(within: 60) {
            // Four threads of their own (`concurrentPerform` would run only as many as cores).
            let group = DispatchGroup()
            for _ in 0..<4 {
                group.enter()
                Thread {
                    var asked = false
                    _ = try? store.verify(progress: { _ in
                        guard !asked else { return }
                        asked = true
                        // Every callback holds its verify's connection until all four are here.
                        arrived.add(1, ordering: .relaxed)
                        while arrived.load(ordering: .relaxed) < 4 { usleep(100) }
                        if let state = try? store.lockState { answers.withLock { $0.append(state) } }
                    })
                    group.leave()
                }.start()
            }
            group.wait()
        })
        #expect(answers.withLock { $0 } == [LockState](repeating: .noPassphrase, count: 4))
    }
}
