import Glibc

/// The PID behind each unique bus name, asked of the bus daemon once: a unique name is never
/// reused while the daemon runs, and its connection ends with its process.
final class CallerCache {
    private var pids: [String: pid_t] = [:]
    /// Past this many names the cache looks for departures it missed.
    static let limit = 4096
    /// The size at which the next such look happens: twice the live clients once there are
    /// that many, so that a crowd of live clients costs one look per doubling, not one per call.
    private var checkAt = limit

    /// The PID of `sender`, from the cache or else `lookup` (the bus daemon; `nil` when the
    /// name is gone).
    func pid(of sender: String, lookup: (String) -> pid_t?) -> pid_t? {
        if let pid = pids[sender] { return pid }
        guard let pid = lookup(sender) else { return nil }
        if pids.count >= checkAt { forgetDeparted(lookup) }
        pids[sender] = pid
        return pid
    }

    /// Bounds the cache even if departures were missed, without forgetting a client still
    /// connected: ``clients`` is who a granted collection's signals go to, so clearing
    /// everything would silence them for live clients until they called again. A name the bus
    /// daemon no longer knows is gone for good (unique names are never reused); the live ones
    /// stay, and their number is bounded by the daemon's own connection limit.
    private func forgetDeparted(_ lookup: (String) -> pid_t?) {
        pids = pids.filter { lookup($0.key) != nil }
        checkAt = max(Self.limit, 2 * pids.count)
    }

    /// The unique names of the clients seen and not yet gone.
    var clients: [String] { Array(pids.keys) }

    /// Drops a client that left the bus.
    func forget(_ sender: String) { pids[sender] = nil }
}
