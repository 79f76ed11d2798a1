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

/// A small deterministic generator (SplitMix64) so each worker's sequence is repeatable.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
