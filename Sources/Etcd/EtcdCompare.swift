/// One condition of a transaction: a key's version, create revision, mod revision or value
/// compared with a given one. A key that does not exist has version, create and mod revision 0.
///
/// ```swift
/// // Create only if absent:
/// EtcdCompare.absent(key)
/// // Replace only if unchanged since it was read at modRevision 42:
/// EtcdCompare.unchanged(key, modRevision: 42)
/// EtcdCompare(key: key, target: .version(3), result: .greater)
/// ```
package struct EtcdCompare: Sendable, Equatable {
    /// What of the key is compared, and with what.
    package enum Target: Sendable, Equatable {
        case version(Int64)
        case createRevision(Int64)
        case modRevision(Int64)
        case value([UInt8])
    }

    /// The comparison: the key's current field `result` the given one.
    package enum Result: String, Sendable {
        case equal = "EQUAL"
        case greater = "GREATER"
        case less = "LESS"
        case notEqual = "NOT_EQUAL"
    }

    package var key: [UInt8]
    /// When set, the condition holds for every key in `[key, rangeEnd)` (etcd 3.3 and later).
    package var rangeEnd: [UInt8]?
    package var target: Target
    package var result: Result

    package init(key: [UInt8], rangeEnd: [UInt8]? = nil, target: Target, result: Result) {
        self.key = key
        self.rangeEnd = rangeEnd
        self.target = target
        self.result = result
    }

    /// True when no key under `prefix` was written after `revision` (none, or all older).
    package static func unchanged(prefix: [UInt8], since revision: Int64) -> EtcdCompare {
        EtcdCompare(key: EtcdPrefix.key(for: prefix), rangeEnd: EtcdPrefix.rangeEnd(for: prefix),
                    target: .modRevision(revision + 1), result: .less)
    }

    /// True when the key does not exist (its create revision is 0).
    package static func absent(_ key: [UInt8]) -> EtcdCompare {
        EtcdCompare(key: key, target: .createRevision(0), result: .equal)
    }

    /// True when the key was last changed at `modRevision` (nobody wrote it since).
    package static func unchanged(_ key: [UInt8], modRevision: Int64) -> EtcdCompare {
        EtcdCompare(key: key, target: .modRevision(modRevision), result: .equal)
    }

    var wire: [String: Any] {
        var body: [String: Any] = ["key": Wire.base64(key), "result": result.rawValue]
        if let rangeEnd { body["range_end"] = Wire.base64(rangeEnd) }
        switch target {
        case let .version(version):
            body["target"] = "VERSION"
            body["version"] = String(version)
        case let .createRevision(revision):
            body["target"] = "CREATE"
            body["create_revision"] = String(revision)
        case let .modRevision(revision):
            body["target"] = "MOD"
            body["mod_revision"] = String(revision)
        case let .value(value):
            body["target"] = "VALUE"
            body["value"] = Wire.base64(value)
        }
        return body
    }
}
