import Foundation

/// How long a watch waits before reopening a stream that ended, and when it stops reopening.
///
/// A stream that closes soon after its creation (within the request timeout) without a new
/// event is a failed attempt, not a working watch: a member that keeps doing so (a compromised
/// one, or one going up and down) would otherwise keep the watch reopening forever, never
/// delivering and never failing. Such streams back off (``EtcdBackoff``), and when they have
/// gone on for the whole retry window the watch ends with `EtcdError.unreachable`. A stream
/// that delivered new events or lived longer starts the count again, so a quiet cluster behind
/// a proxy that cuts idle streams keeps its watch. A progress notification is not a delivery
/// here: it carries no change, and a member that sends one and closes, again and again, is
/// still a member whose streams close at once. (So does a proxy that cuts idle streams sooner
/// than the request timeout: the watch then ends with `unreachable` after the retry window,
/// and its owner watches again, as the sync daemon does.)
struct EtcdWatchReopen {
    let requestTimeout: TimeInterval
    let retryWindow: TimeInterval
    /// When the streams started closing at once, one after another; nil while they do not.
    private var closingAtOnceSince: Date?
    private var backoff = EtcdBackoff()

    init(requestTimeout: TimeInterval, retryWindow: TimeInterval) {
        self.requestTimeout = requestTimeout
        self.retryWindow = retryWindow
    }

    /// The pause before reopening, after a stream opened at `opened` ended having delivered
    /// new events or not; throws `unreachable` (naming `endpoints`) to stop reopening.
    mutating func pause(afterStreamOpenedAt opened: Date, deliveredEvents: Bool, endpoints: [String]) throws -> Duration {
        let now = Date()
        if deliveredEvents || now.timeIntervalSince(opened) >= requestTimeout {
            closingAtOnceSince = nil
            backoff.reset()
            return backoff.upcoming
        }
        let since = closingAtOnceSince ?? opened
        closingAtOnceSince = since
        if now.timeIntervalSince(since) >= retryWindow {
            throw EtcdError.unreachable(endpoints: endpoints, lastReason: "watch streams keep closing right after their creation")
        }
        return backoff.next()
    }
}
