extension EtcdClient {
    /// Runs `success` if every comparison in `compare` holds, else `failure`, atomically.
    /// This is compare-and-swap: create only if absent (`.absent(key)`), replace only if
    /// unchanged (`.unchanged(key, modRevision:)`).
    ///
    /// A transaction retried after a failure in transit may find its own earlier write and
    /// report `succeeded == false`; read the key back before concluding someone else won.
    ///
    /// ```swift
    /// let result = try await client.txn(compare: [.unchanged(k, modRevision: seen)],
    ///                                   success: [.put(key: k, value: new)], failure: [.range(key: k)])
    /// ```
    package func txn(compare: [EtcdCompare], success: [EtcdOperation], failure: [EtcdOperation] = []) async throws -> EtcdTxnResult {
        let body: [String: Any] = ["compare": compare.map(\.wire), "success": success.map(\.wire),
                                   "failure": failure.map(\.wire)]
        return try EtcdTxnResult(try await call("v3/kv/txn", body, as: WireTxnResponse.self))
    }
}
