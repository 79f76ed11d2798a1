import Foundation

/// Runs `body` on a new thread and waits for it, so a read can run while the calling
/// thread holds the store's write transaction.
struct ReadOnAnotherThread<T: Sendable>: @unchecked Sendable {
    let result: Result<T, any Error>

    init(_ body: @escaping @Sendable () throws -> T) {
        let box = ResultBox<T>()
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = Result { try body() }
            finished.signal()
        }
        thread.start()
        finished.wait()
        result = box.value!
    }

    private final class ResultBox<Value>: @unchecked Sendable {
        var value: Result<Value, any Error>?
    }
}
