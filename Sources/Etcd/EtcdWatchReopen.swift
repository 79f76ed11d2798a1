import Foundation

/// How long a watch waits before reopening a stream that ended, and when it stops reopening.
///
/// A stream that closes right after its creation (within the request timeout) having
/// delivered nothing is a failed attempt, not a working watch: a member that keeps doing so (a
/// compromised one, or one going up and down) would otherwise keep the watch reopening forever,
/// never delivering and never failing. Such streams back off (doubling from 50 ms, at most a
/// second, as ``EtcdClient/withFailover(_:)`` does), and when they have gone on for the whole
/// retry window the watch ends with `EtcdError.unreachable`. A stream that delivered a batch or
/// lived longer starts the count again, so a quiet cluster behind a proxy that cuts idle
/// streams keeps its watch.
struct EtcdWatchReopen {
    let requestTimeout: TimeInterval
    let retryWindow: TimeInterval
    /// When the streams started closing at once, one after another; nil while they do not.
    private var closingAtOnceSince: Date?
    private var pause: Duration = .milliseconds(50)

    init(requestTimeout: TimeInterval, retryWindow: TimeInterval) {
        self.requestTimeout = requestTimeout
        self.retryWindow = retryWindow
    }

    /// The pause before reopening, after a stream opened at `opened` ended having delivered
    /// batches or not; throws `unreachable` (naming `endpoints`) to stop reopening.
    mutating func pause(afterStreamOpenedAt opened: Date, delivered: Bool, endpoints: [String]) throws -> Duration {
        let now = Date()
        if delivered || now.timeIntervalSince(opened) >= requestTimeout {
            closingAtOnceSince = nil
            pause = .milliseconds(50)
            return pause
        }
        let since = closingAtOnceSince ?? opened
        closingAtOnceSince = since
        if now.timeIntervalSince(since) >= retryWindow {
            throw EtcdError.unreachable(endpoints: endpoints, lastReason: "watch streams keep closing right after their creation")
        }
        defer { pause = min(pause * 2, .seconds(1)) }
        return pause
    }
}
