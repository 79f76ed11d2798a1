import Foundation

// The JSON gateway's shapes (etcd 3.4, grpc-gateway): bytes are base64 strings, int64s are
// decimal strings, and fields at their default (0, false, empty) are left out, hence every
// field optional. Internal: callers see the typed values in EtcdKeyValue.swift and friends.

struct WireHeader: Decodable {
    var revision: String?
    var member_id: String?
    var raft_term: String?
}

struct WireKeyValue: Decodable {
    var key: String?
    var value: String?
    var create_revision: String?
    var mod_revision: String?
    var version: String?
}

struct WireRangeResponse: Decodable {
    var header: WireHeader?
    var kvs: [WireKeyValue]?
    var more: Bool?
    var count: String?
}

struct WirePutResponse: Decodable {
    var header: WireHeader?
}

struct WireDeleteResponse: Decodable {
    var header: WireHeader?
    var deleted: String?
}

struct WireResponseOp: Decodable {
    var response_range: WireRangeResponse?
    var response_put: WirePutResponse?
    var response_delete_range: WireDeleteResponse?
}

struct WireTxnResponse: Decodable {
    var header: WireHeader?
    var succeeded: Bool?
    var responses: [WireResponseOp]?
}

struct WireStatusResponse: Decodable {
    var header: WireHeader?
    var version: String?
    var leader: String?
    var raftTerm: String?
    var raftIndex: String?
}

struct WireAuthenticateResponse: Decodable {
    var token: String?
}

/// A refusal from a unary call: `{"error":..,"code":..,"message":..}`.
struct WireGatewayError: Decodable {
    var error: String?
    var message: String?
    var code: Int?
}

/// One line of the watch stream: `{"result":{...}}` or `{"error":{...}}`.
struct WireWatchLine: Decodable {
    struct StreamError: Decodable {
        var grpc_code: Int?
        var http_code: Int?
        var message: String?
    }
    var result: WireWatchResponse?
    var error: StreamError?
}

struct WireWatchResponse: Decodable {
    var header: WireHeader?
    var created: Bool?
    var canceled: Bool?
    var compact_revision: String?
    var cancel_reason: String?
    var events: [WireEvent]?
}

struct WireEvent: Decodable {
    var type: String?
    var kv: WireKeyValue?
}

/// Conversions from the wire's strings, each failing as a malformed response.
enum Wire {
    static func int64(_ text: String?, _ field: String) throws -> Int64 {
        guard let text else { return 0 }
        guard let value = Int64(text) else { throw EtcdError.malformedResponse("\(field) is not an integer") }
        return value
    }

    /// The header's revision, which every answer of etcd carries (revisions start at 1). Unlike
    /// the other fields, absent is not 0 here: an answer without it is not etcd's, and taking
    /// it as revision 0 would report a write that never happened as done.
    static func revision(_ header: WireHeader?) throws -> Int64 {
        guard let text = header?.revision else { throw EtcdError.malformedResponse("header.revision is missing") }
        return try revision(text, "header.revision")
    }

    /// A revision: etcd's are never negative, and one below Int64.max leaves room for the
    /// next (a watch resumes from revision + 1, and so do its callers): Int64.max from a
    /// member overflowed that addition and crashed the process.
    static func revision(_ text: String?, _ field: String) throws -> Int64 {
        let value = try int64(text, field)
        guard value >= 0 && value < Int64.max else { throw EtcdError.malformedResponse("\(field) is not a revision") }
        return value
    }

    static func uint64(_ text: String?, _ field: String) throws -> UInt64 {
        guard let text else { return 0 }
        guard let value = UInt64(text) else { throw EtcdError.malformedResponse("\(field) is not an integer") }
        return value
    }

    static func bytes(_ text: String?, _ field: String) throws -> [UInt8] {
        guard let text else { return [] }
        guard let data = Data(base64Encoded: text) else { throw EtcdError.malformedResponse("\(field) is not base64") }
        return [UInt8](data)
    }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    static func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do { return try JSONDecoder().decode(type, from: data) }
        catch { throw EtcdError.malformedResponse("unexpected JSON for \(T.self)") }
    }

    static func encode(_ object: [String: Any]) -> Data {
        // Only strings, booleans, arrays and dictionaries built in this module: cannot fail.
        (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
    }
}
