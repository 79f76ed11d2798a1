/// `org.freedesktop.Secret.Service.GetSecrets`: many items' secrets in one reply, within the
/// bounds that keep one call from stopping the provider for everyone.
extension SecretServiceProvider {
    /// The most distinct items one `GetSecrets` reads. Calls are served one at a time, each
    /// item is one store read (tens of microseconds), so this bounds how long one call keeps
    /// every other client waiting (a fraction of a second); clients ask for the items a search
    /// returned, a handful. More is `LimitsExceeded`: ask in several calls.
    static let maximumSecretsPerCall = 4096

    /// The reply's `a{o(oayays)}`: each distinct path once (the reply is a dictionary, so a
    /// path given twice answers once), paths that name no item this caller sees left out, as the
    /// spec's dictionary allows. A store that cannot read an item (locked, failing) fails the
    /// call with that error, as `GetSecret` does, instead of answering without the item.
    /// `LimitsExceeded` for more than ``maximumSecretsPerCall`` distinct paths, and as soon as
    /// the secrets read so far would not fit in one message (``BusLimits``): so that memory
    /// never holds more than one item past that bound. A call given up that way (or by a
    /// failing read) zeroes the secrets it had read; those of a reply, the bus layer zeroes
    /// once it is sent.
    ///
    /// `BusConnection` measures the finished reply again, as it measures every reply
    /// (`BusLimits.fits`): a walk over the values, not their bytes, about 0.5 % of a 4,096-item
    /// call (2.3 ms of 420 ms, both debug builds). Neither measure can stand in for the other:
    /// this running total bounds the memory held while the secrets are read, and that check is
    /// the one every method's reply passes.
    func secrets(of paths: [String], session: String, _ context: Context) throws(BusError) -> BusValue {
        var seen = Set<String>()
        let distinct = paths.filter { seen.insert($0).inserted }
        guard distinct.count <= Self.maximumSecretsPerCall else {
            throw .limitsExceeded("GetSecrets reads at most \(Self.maximumSecretsPerCall) items per call, not \(distinct.count); ask in several calls.")
        }
        let element = "{o(oayays)}"
        // The reply's body so far: the array's length, padded to its first entry.
        var end = BusValue.array(element: element, []).marshalledEnd(after: 0)
        var secrets: [BusValue] = []
        do throws(BusError) {
            for path in distinct {
                guard case .item(let group, let id)? = ObjectPaths.parse(path, defaultGroup: access.defaultGroup),
                      context.groups.contains(group),
                      let item = try backend.item(group: group, id: id, withSecret: true), let value = item.secret else { continue }
                secrets.append(.dictEntry(.objectPath(path), SecretValue(session: session, value: value, contentType: item.contentType).busValue))
                end = secrets[secrets.count - 1].marshalledEnd(after: end)
                guard end <= BusLimits.maximumBody else { throw BusLimits.exceeded("The secrets of these items") }
            }
        } catch {
            // No reply carries the secrets read so far: zeroed here, as the bus layer zeroes a reply's.
            BusValue.wipeBytes(of: &secrets)
            throw error
        }
        return .array(element: element, secrets)
    }
}
