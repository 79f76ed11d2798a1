import Foundation

/// How much of a response body has come, against its Content-Length and the caller's limit.
struct EtcdBodyCounter {
    /// The Content-Length; nil: the body ends with the connection.
    let length: Int?
    let limit: Int?
    private(set) var received = 0

    init(length: Int?, limit: Int?) {
        self.length = length
        self.limit = limit
    }

    var isComplete: Bool { length.map { received >= $0 } ?? false }

    /// Refuses a Content-Length over the limit before any of the body is read.
    func check() throws {
        if let length, let limit, length > limit { throw Self.tooLarge(limit) }
    }

    /// The part of `chunk` that belongs to the body: bytes past the Content-Length are not the
    /// answer's. Throws once the body passes the limit.
    mutating func take(_ chunk: Data) throws -> Data {
        let wanted = length.map { min(chunk.count, $0 - received) } ?? chunk.count
        received += wanted
        if let limit, received > limit { throw Self.tooLarge(limit) }
        return wanted == chunk.count ? chunk : Data(chunk.prefix(wanted))
    }

    private static func tooLarge(_ limit: Int) -> EtcdError {
        .responseTooLarge(limit: limit)
    }
}
