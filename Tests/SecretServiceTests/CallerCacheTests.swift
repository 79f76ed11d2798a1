import Glibc
@testable import SecretService
import Testing

/// The PID cache behind per-binary access and granted-collection signals. The lookup stands for
/// the bus daemon, which knows a unique name while its connection lasts and never again.
@Suite("Caller cache")
struct CallerCacheTests {
    /// Before: past 4096 names the cache was cleared whole, so a client still connected
    /// dropped out of ``CallerCache/clients`` and stopped getting its granted collection's
    /// signals until it called again.
    @Test("bounded by forgetting departed names, never a client still connected")
    func evictsOnlyDeparted() {
        let cache = CallerCache()
        var connected: Set<String> = [":1.live"]
        let lookup = { (name: String) -> pid_t? in connected.contains(name) ? 42 : nil }
        #expect(cache.pid(of: ":1.live", lookup: lookup) == 42)
        // Clients that call once and leave without the departure being seen.
        for index in 0..<(2 * CallerCache.limit) {
            let name = ":1.\(index)"
            connected.insert(name)
            #expect(cache.pid(of: name, lookup: lookup) == 42)
            connected.remove(name)
        }
        #expect(cache.clients.contains(":1.live"))
        #expect(cache.clients.count <= CallerCache.limit)
    }
}
