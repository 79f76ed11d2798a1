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
        // gRPC metadata "hasleader": the member ends the stream when it loses its leader (cut off
        // from the majority), instead of keeping it open with no events ever coming.
        let exchange = try EtcdExchange(url: url, body: body, token: token, tls: tls,
                                        headers: ["Grpc-Metadata-Hasleader": "true"])
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

/// Cuts a byte stream into non-empty lines as chunks arrive. Only new bytes are searched for
/// a newline, so a long line (a batch of thousands of events) costs one pass, not one per chunk.
final class EtcdLineSplitter: Sendable {
    private let state = Mutex<(buffer: Data, searched: Int)>((Data(), 0))

    func append(_ chunk: Data) -> [Data] {
        state.withLock { state in
            state.buffer.append(chunk)
            var lines: [Data] = []
            var start = state.buffer.startIndex
            var from = state.buffer.startIndex + state.searched
            while let newline = state.buffer[from...].firstIndex(of: 0x0A) {
                if newline > start { lines.append(Data(state.buffer[start..<newline])) }
                start = newline + 1
                from = start
            }
            // Only when lines were cut: a long line arriving in many chunks is not copied each time.
            if start > state.buffer.startIndex { state.buffer = Data(state.buffer[start...]) }
            state.searched = state.buffer.count
            return lines
        }
    }

    /// What is left after the last newline, if anything.
    func rest() -> Data? {
        state.withLock { state in
            defer { state = (Data(), 0) }
            return state.buffer.isEmpty ? nil : state.buffer
        }
    }
}
