/// One request inside a transaction.
///
/// ```swift
/// let ops: [EtcdOperation] = [.put(key: k, value: v), .delete(key: old), .range(key: k)]
/// ```
package enum EtcdOperation: Sendable, Equatable {
    case put(key: [UInt8], value: [UInt8])
    /// Reads `key`, or `[key, rangeEnd)`.
    case range(key: [UInt8], rangeEnd: [UInt8]? = nil)
    /// Deletes `key`, or `[key, rangeEnd)`.
    case delete(key: [UInt8], rangeEnd: [UInt8]? = nil)

    var wire: [String: Any] {
        switch self {
        case let .put(key, value):
            return ["request_put": ["key": Wire.base64(key), "value": Wire.base64(value)]]
        case let .range(key, rangeEnd):
            var body: [String: Any] = ["key": Wire.base64(key)]
            if let rangeEnd { body["range_end"] = Wire.base64(rangeEnd) }
            return ["request_range": body]
        case let .delete(key, rangeEnd):
            var body: [String: Any] = ["key": Wire.base64(key)]
            if let rangeEnd { body["range_end"] = Wire.base64(rangeEnd) }
            return ["request_delete_range": body]
        }
    }
}

/// What one operation of a transaction's chosen branch returned, in the branch's order.
///
/// ```swift
/// if case let .range(current) = result.responses.first { print(current.keyValues.count) }
/// ```
package enum EtcdOperationResponse: Sendable, Equatable {
    /// A put; the revision is the transaction's (every write of a transaction shares it).
    case put(revision: Int64)
    case range(EtcdRangeResult)
    case delete(deleted: Int64)
}

/// A transaction's outcome.
///
/// ```swift
/// let result = try await client.txn(compare: [.absent(k)], success: [.put(key: k, value: v)],
///                                   failure: [.range(key: k)])
/// if !result.succeeded { /* someone created k first */ }
/// ```
package struct EtcdTxnResult: Sendable, Equatable {
    /// Every compare held, and the success branch ran (else the failure branch did).
    package var succeeded: Bool
    /// The store's revision after the transaction.
    package var revision: Int64
    package var responses: [EtcdOperationResponse]

    init(_ wire: WireTxnResponse) throws {
        succeeded = wire.succeeded ?? false
        revision = try Wire.revision(wire.header)
        responses = try (wire.responses ?? []).map { [revision] op in
            if let range = op.response_range { return .range(try EtcdRangeResult(range)) }
            if let delete = op.response_delete_range { return .delete(deleted: try Wire.int64(delete.deleted, "deleted")) }
            if op.response_put != nil { return .put(revision: revision) }
            throw EtcdError.malformedResponse("a transaction response of an unknown kind")
        }
    }
}
