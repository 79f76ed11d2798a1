import Foundation

extension EtcdClient {
    /// The first line of a watch stream: the member's revision if the watch was created, or
    /// the reason it was not (compacted start revision, refused token, gateway error).
    static func created(from line: Data) throws -> Int64 {
        let response = try watchResponse(from: line)
        if let compacted = try compaction(in: response) { throw compacted }
        guard response.created == true else { throw EtcdError.malformedResponse("the watch stream did not start with its creation") }
        return try Wire.revision(response.header)
    }

    /// A later line: a batch of events (possibly empty, a progress notification), nil for a
    /// line that carries none, or the error that ended the watch.
    static func batch(from line: Data) throws -> EtcdWatchBatch? {
        let response = try watchResponse(from: line)
        if let compacted = try compaction(in: response) { throw compacted }
        if response.created == true { return nil }
        return EtcdWatchBatch(revision: try Wire.revision(response.header),
                              events: try (response.events ?? []).map(EtcdEvent.init))
    }

    /// `compacted` for a watch cancelled for compaction, `rejected` for one cancelled for
    /// another reason (an auth failure carries gRPC's "code = Unauthenticated").
    private static func compaction(in response: WireWatchResponse) throws -> EtcdError? {
        guard response.canceled == true else { return nil }
        let compactRevision = try Wire.revision(response.compact_revision, "compact_revision")
        if compactRevision > 0 { return .compacted(revision: compactRevision) }
        let reason = response.cancel_reason ?? "the watch was cancelled by etcd"
        let code = reason.contains("code = Unauthenticated") ? EtcdError.unauthenticatedCode : -1
        return .rejected(httpStatus: 200, code: code, message: reason)
    }

    private static func watchResponse(from line: Data) throws -> WireWatchResponse {
        let parsed = try Wire.decode(WireWatchLine.self, line)
        if let result = parsed.result { return result }
        if let error = parsed.error {
            throw EtcdError.rejected(httpStatus: error.http_code ?? 0, code: error.grpc_code ?? -1,
                                     message: error.message ?? "watch stream error")
        }
        // A refusal before streaming began has the unary shape.
        let refusal = try Wire.decode(WireGatewayError.self, line)
        throw EtcdError.rejected(httpStatus: 0, code: refusal.code ?? -1, message: refusal.message ?? refusal.error ?? "watch refused")
    }
}
