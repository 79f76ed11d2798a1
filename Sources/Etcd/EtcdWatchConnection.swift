import Foundation
import Synchronization

/// One `POST /v3/watch` to one member: the gateway's streamed answer, cut into its
/// newline-separated JSON objects. `close()` (also run when the consumer stops iterating or is
/// cancelled) closes the connection, and so the watch on the member.
final class EtcdWatchConnection: Sendable {
    let lines: AsyncThrowingStream<Data, any Error>
    private let exchange: EtcdExchange

    /// Opens the stream; the response head must come within `timeout`, the events may take forever.
    init(url: URL, body: Data, token: String?, tls: EtcdTLSContext?, timeout: TimeInterval) throws {
        let (lines, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        self.lines = lines
        let exchange = try EtcdExchange(url: url, body: body, token: token, tls: tls)
        self.exchange = exchange
        continuation.onTermination = { _ in exchange.cancel() }
        EtcdHTTP.queue.async {
            let splitter = EtcdLineSplitter()
            do {
                _ = try exchange.run(headDeadline: Date().addingTimeInterval(timeout), bodyDeadline: nil) { chunk in
                    for line in splitter.append(chunk) { continuation.yield(line) }
                }
                if let rest = splitter.rest() { continuation.yield(rest) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
    }

    func close() { exchange.cancel() }

    deinit { exchange.cancel() }
}

/// Cuts a byte stream into non-empty lines as chunks arrive.
final class EtcdLineSplitter: Sendable {
    private let buffer = Mutex(Data())

    func append(_ chunk: Data) -> [Data] {
        buffer.withLock { buffer in
            buffer.append(chunk)
            var lines: [Data] = []
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = Data(buffer[buffer.startIndex..<newline])
                if !line.isEmpty { lines.append(line) }
                buffer = Data(buffer[buffer.index(after: newline)...])
            }
            return lines
        }
    }

    /// What is left after the last newline, if anything.
    func rest() -> Data? {
        buffer.withLock { buffer in
            defer { buffer = Data() }
            return buffer.isEmpty ? nil : buffer
        }
    }
}
