import Foundation
internal import SecretService

/// A minimal Secret Service client for timing lookups the way a library client makes them:
/// one connection, one `plain` session, then per lookup `SearchItems` on the Service with
/// attribute pairs and `GetSecrets` for what it found. It speaks D-Bus through the provider's
/// own wrapper of sd-bus (`BusConnection`), the one place SecStore calls sd-bus.
///
/// ```swift
/// let client = try SecretServiceClient(address: "unix:path=/tmp/x/bus")
/// let secret = try client.lookup(["bench-id": "item-7"])   // the item's secret, or nil
/// ```
final class SecretServiceClient {
    private let bus: BusConnection
    private var session = ""

    /// Connects to the bus at `address` and opens a `plain` session.
    init(address: String) throws {
        do {
            bus = try BusConnection(address: address)
        } catch {
            throw BenchmarkError("sd-bus: cannot connect to the private bus (\(error))")
        }
        let opened = try call("OpenSession", [.string("plain"), .variant(.string(""))])
        guard opened.count == 2, case .objectPath(let path) = opened[1] else {
            throw BenchmarkError("Secret Service OpenSession: unexpected reply \(opened)")
        }
        session = path
    }

    /// `SearchItems(attributes)` on the Service, then `GetSecrets` of the first unlocked item
    /// found: that item's secret, or `nil` when nothing matched.
    func lookup(_ attributes: [String: String]) throws -> [UInt8]? {
        let found = try call("SearchItems", [.stringDictionary(attributes)])
        // (unlocked ao, locked ao): only the unlocked ones are read.
        guard case .array(_, let unlocked)? = found.first, case .objectPath(let item)? = unlocked.first else { return nil }
        let secrets = try call("GetSecrets", [.array(element: "o", [.objectPath(item)]), .objectPath(session)])
        // a{o(oayays)}: the first entry's secret value.
        guard case .array(_, let entries)? = secrets.first, case .dictEntry(_, .structure(let secret))? = entries.first,
              secret.count == 4, case .bytes(let value) = secret[2]
        else { return nil }
        return value
    }

    /// One method call on the Service, waited for.
    private func call(_ member: String, _ arguments: [BusValue]) throws -> [BusValue] {
        do {
            return try bus.call(destination: "org.freedesktop.secrets", path: "/org/freedesktop/secrets",
                                interface: "org.freedesktop.Secret.Service", member: member, arguments)
        } catch {
            throw BenchmarkError("Secret Service \(member) failed: \(error.name)")
        }
    }
}
