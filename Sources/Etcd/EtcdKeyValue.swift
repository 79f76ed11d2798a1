/// One key as etcd stores it, at the revision a read or an event saw.
///
/// ```swift
/// let result = try await client.range(key: Array("config".utf8))
/// if let kv = result.keyValues.first { print(kv.modRevision, kv.value.count) }
/// ```
package struct EtcdKeyValue: Sendable, Equatable {
    package var key: [UInt8]
    /// Empty for a `keysOnly` read and for a delete event.
    package var value: [UInt8]
    /// The revision of the key's creation; 0 for a delete event.
    package var createRevision: Int64
    /// The revision of the key's last change (for a delete event, of the delete).
    package var modRevision: Int64
    /// How many times the key was written since its creation; 0 for a delete event.
    package var version: Int64

    package init(key: [UInt8], value: [UInt8], createRevision: Int64, modRevision: Int64, version: Int64) {
        self.key = key
        self.value = value
        self.createRevision = createRevision
        self.modRevision = modRevision
        self.version = version
    }

    init(_ wire: WireKeyValue) throws {
        self.init(key: try Wire.bytes(wire.key, "kv.key"), value: try Wire.bytes(wire.value, "kv.value"),
                  createRevision: try Wire.revision(wire.create_revision, "create_revision"),
                  modRevision: try Wire.revision(wire.mod_revision, "mod_revision"),
                  version: try Wire.int64(wire.version, "version"))
    }
}

/// What a range read returned.
///
/// ```swift
/// let page = try await client.range(prefix: Array("items/".utf8), limit: 100)
/// print(page.revision, page.count, page.more)
/// ```
package struct EtcdRangeResult: Sendable, Equatable {
    /// The store's revision when the read was served (the header's revision).
    package var revision: Int64
    package var keyValues: [EtcdKeyValue]
    /// More keys matched than `limit` allowed.
    package var more: Bool
    /// How many keys matched in all (not only the ones returned).
    package var count: Int64

    init(_ wire: WireRangeResponse) throws {
        revision = try Wire.revision(wire.header)
        keyValues = try (wire.kvs ?? []).map(EtcdKeyValue.init)
        more = wire.more ?? false
        count = try Wire.int64(wire.count, "count")
    }
}

/// The `range_end` that makes a range cover every key starting with a prefix.
///
/// ```swift
/// EtcdPrefix.rangeEnd(for: Array("a/".utf8)) == Array("a0".utf8)
/// ```
package enum EtcdPrefix {
    /// The prefix with its last byte incremented (carrying over 0xff bytes); `[0]`, which etcd
    /// reads as "to the end of the key space", when there is no such key (empty or all 0xff).
    package static func rangeEnd(for prefix: [UInt8]) -> [UInt8] {
        var end = prefix
        while let last = end.last {
            if last < 0xff {
                end[end.count - 1] = last + 1
                return end
            }
            end.removeLast()
        }
        return [0]
    }

    /// etcd reads an empty key as absent; `[0]` with range_end `[0]` means every key.
    static func key(for prefix: [UInt8]) -> [UInt8] { prefix.isEmpty ? [0] : prefix }
}
