import Dispatch
import Synchronization

/// Locks a vault after a period without use (`SecretStore.Options.autoLockInterval`).
///
/// `@unchecked Sendable`: the only non-Sendable member is the Dispatch timer, and Dispatch
/// objects may be used from any thread.
final class AutoLock: @unchecked Sendable {
    private let interval: UInt64
    private let lastUse: Atomic<UInt64>
    private let timer: DispatchSourceTimer

    init(interval: Double) {
        self.interval = UInt64(max(interval, 0) * 1_000_000_000)
        lastUse = Atomic(DispatchTime.now().uptimeNanoseconds)
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    }

    /// Starts checking a few times per interval; `expire` runs when the vault sat unused
    /// for a whole interval.
    func start(expire: @escaping @Sendable () -> Void) {
        let period = Int(max(interval / 4, 10_000_000))
        timer.schedule(deadline: .now() + .nanoseconds(period), repeating: .nanoseconds(period))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let idle = DispatchTime.now().uptimeNanoseconds &- self.lastUse.load(ordering: .relaxed)
            if idle >= self.interval { expire() }
        }
        timer.resume()
    }

    func touch() {
        lastUse.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
    }

    deinit {
        timer.cancel()
    }
}
