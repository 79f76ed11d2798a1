extension EtcdClient {
    /// Reads one key, or the keys in `[key, rangeEnd)` when `rangeEnd` is given.
    ///
    /// - Parameters:
    ///   - revision: read the store as it was at this revision (0: the current one); a
    ///     compacted revision throws `EtcdError.compacted`.
    ///   - minModRevision: only keys changed at or after this revision (0: no filter).
    ///   - limit: at most this many keys (0: no limit); `more` says whether some were left.
    ///   - keysOnly: leave the values out.
    ///
    /// ```swift
    /// let result = try await client.range(key: Array("a".utf8), rangeEnd: Array("b".utf8), limit: 10)
    /// ```
    package func range(key: [UInt8], rangeEnd: [UInt8]? = nil, revision: Int64 = 0, minModRevision: Int64 = 0,
                       limit: Int64 = 0, keysOnly: Bool = false) async throws -> EtcdRangeResult {
        var body: [String: Any] = ["key": Wire.base64(key)]
        if let rangeEnd { body["range_end"] = Wire.base64(rangeEnd) }
        if revision != 0 { body["revision"] = String(revision) }
        if minModRevision != 0 { body["min_mod_revision"] = String(minModRevision) }
        if limit != 0 { body["limit"] = String(limit) }
        if keysOnly { body["keys_only"] = true }
        return try EtcdRangeResult(try await call("v3/kv/range", body, as: WireRangeResponse.self))
    }

    /// Reads every key that starts with `prefix` (an empty prefix reads every key).
    ///
    /// ```swift
    /// let items = try await client.range(prefix: Array("items/".utf8))
    /// ```
    package func range(prefix: [UInt8], revision: Int64 = 0, minModRevision: Int64 = 0,
                       limit: Int64 = 0, keysOnly: Bool = false) async throws -> EtcdRangeResult {
        try await range(key: EtcdPrefix.key(for: prefix), rangeEnd: EtcdPrefix.rangeEnd(for: prefix), revision: revision,
                        minModRevision: minModRevision, limit: limit, keysOnly: keysOnly)
    }

    /// Reads every key that starts with `prefix` (changed since `minModRevision`, when given) at
    /// one snapshot revision, in pages, and that revision. A page starts at ``pageSize`` keys;
    /// when an answer is larger than the client reads at once (large values), the page asks
    /// for a quarter as many keys until one fits, and doubles again after each page that fit
    /// (one large value must not leave the rest of the prefix in tiny pages). One key over the
    /// limit is `EtcdError.responseTooLarge`.
    ///
    /// ```swift
    /// let (records, revision) = try await client.rangeAll(prefix: Array("P/rec/".utf8))
    /// ```
    package func rangeAll(prefix: [UInt8], minModRevision: Int64 = 0, keysOnly: Bool = false) async throws -> ([EtcdKeyValue], Int64) {
        var found: [EtcdKeyValue] = []
        var start = EtcdPrefix.key(for: prefix)
        let end = EtcdPrefix.rangeEnd(for: prefix)
        var snapshot: Int64 = 0
        var limit = Self.pageSize
        while true {
            let page: EtcdRangeResult
            do {
                page = try await range(key: start, rangeEnd: end, revision: snapshot, minModRevision: minModRevision,
                                       limit: limit, keysOnly: keysOnly)
            } catch EtcdError.responseTooLarge where limit > 1 {
                limit = max(1, limit / 4)
                continue
            }
            if snapshot == 0 { snapshot = page.revision }
            try Self.checkPage(page.keyValues, limit: limit, from: start, to: end, after: found.last?.key)
            limit = min(Self.pageSize, limit * 2)
            found += page.keyValues
            guard page.more, let last = page.keyValues.last else { return (found, snapshot) }
            start = last.key + [0]
        }
    }

    /// A page must hold at most `limit` keys, each inside `[start, end)` (an `end` of `[0]` is
    /// no end) and after the one before it, this page's or the last page's. Otherwise the next
    /// page would start where this one did, and a lying or broken endpoint (`more` with the same
    /// key, again and again) kept the reading going for good, gathering every page.
    static func checkPage(_ keyValues: [EtcdKeyValue], limit: Int64, from start: [UInt8], to end: [UInt8],
                          after previous: [UInt8]?) throws {
        guard keyValues.count <= limit else {
            throw EtcdError.malformedResponse("a range page holds \(keyValues.count) keys, over its limit of \(limit)")
        }
        var previous = previous
        for keyValue in keyValues {
            let key = keyValue.key
            guard !key.lexicographicallyPrecedes(start), end == [0] || key.lexicographicallyPrecedes(end) else {
                throw EtcdError.malformedResponse("a range page holds a key outside the range asked for")
            }
            if let previous, !previous.lexicographicallyPrecedes(key) {
                throw EtcdError.malformedResponse("a range page's keys are not in ascending order, or repeat")
            }
            previous = key
        }
    }

    /// The keys ``rangeAll(prefix:minModRevision:keysOnly:)`` asks for per page at first.
    static let pageSize: Int64 = 1000

    /// Writes `value` at `key` and returns the store's revision after the write.
    ///
    /// ```swift
    /// let revision = try await client.put(key: Array("k".utf8), value: sealedRecord)
    /// ```
    @discardableResult
    package func put(key: [UInt8], value: [UInt8]) async throws -> Int64 {
        let response = try await call("v3/kv/put", ["key": Wire.base64(key), "value": Wire.base64(value)],
                                      as: WirePutResponse.self)
        return try Wire.revision(response.header)
    }

    /// Deletes one key; returns the store's revision after the delete and how many keys went (0 or 1).
    ///
    /// ```swift
    /// let (revision, deleted) = try await client.delete(key: Array("k".utf8))
    /// ```
    @discardableResult
    package func delete(key: [UInt8]) async throws -> (revision: Int64, deleted: Int64) {
        try await deleteRange(["key": Wire.base64(key)])
    }

    /// Deletes every key that starts with `prefix`; returns the revision after and how many went.
    ///
    /// ```swift
    /// try await client.delete(prefix: Array("tmp/".utf8))
    /// ```
    @discardableResult
    package func delete(prefix: [UInt8]) async throws -> (revision: Int64, deleted: Int64) {
        try await deleteRange(["key": Wire.base64(EtcdPrefix.key(for: prefix)),
                               "range_end": Wire.base64(EtcdPrefix.rangeEnd(for: prefix))])
    }

    private func deleteRange(_ body: [String: Any]) async throws -> (revision: Int64, deleted: Int64) {
        let response = try await call("v3/kv/deleterange", body, as: WireDeleteResponse.self)
        return (try Wire.revision(response.header), try Wire.int64(response.deleted, "deleted"))
    }

    /// Discards the history before `revision` (reads and watches at older revisions then fail
    /// with `EtcdError.compacted`). `physical` waits until the space is reclaimed.
    ///
    /// ```swift
    /// try await client.compact(revision: current - 10_000)
    /// ```
    package func compact(revision: Int64, physical: Bool = false) async throws {
        var body: [String: Any] = ["revision": String(revision)]
        if physical { body["physical"] = true }
        _ = try await call("v3/kv/compaction", Wire.encode(body))
    }
}
