/// The pause between rounds of attempts against a cluster: 50 ms, doubling after each use, at
/// most a second. ``EtcdClient/withFailover(_:)`` pauses so between rounds over the members,
/// ``EtcdWatchReopen`` between streams that keep closing at once.
///
/// ```swift
/// var backoff = EtcdBackoff()
/// try await Task.sleep(for: backoff.next())   // 50 ms, then 100 ms, 200 ms, … 1 s
/// ```
struct EtcdBackoff {
    static let first: Duration = .milliseconds(50)
    static let longest: Duration = .seconds(1)

    private var pause = Self.first

    /// The pause to take now; the next one is twice as long, up to ``longest``.
    mutating func next() -> Duration {
        defer { pause = min(pause * 2, Self.longest) }
        return pause
    }

    /// The pause the next ``next()`` would return, without using it up.
    var upcoming: Duration { pause }

    /// Starts again from ``first``.
    mutating func reset() { pause = Self.first }
}
