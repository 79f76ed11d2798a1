import Foundation
import Synchronization

/// One `POST /v3/watch` to one member: the gateway's streamed answer, cut into its
/// newline-separated JSON objects. `close()` (also run when the consumer stops iterating or is
/// cancelled) closes the connection, and so the watch on the member.
///
/// The reader waits while ``bufferedLines`` lines are cut and not yet taken (``Lines``), so a
/// member that sends faster than the watch's consumer applies (progress notifications as fast
/// as the socket takes them) fills the socket's buffers, not this process's memory: with every
/// line kept, memory grew from 52 MB to 1 GB in 41 s (found by the twelfth issue-13 session's
/// audit).
final class EtcdWatchConnection: Sendable {
    private let lines: AsyncThrowingStream<Data, any Error>
    private let exchange: EtcdExchange
    /// Lines the reader may cut ahead of the consumer.
    static let bufferedLines = 2
    private let room = LineRoom(lines: EtcdWatchConnection.bufferedLines)

    /// Opens the stream; the response head and the first line (the watch's creation) must come
    /// within `timeout`, the events may take forever. A line longer than `maximumLineLength`
    /// ends the stream (`EtcdError.malformedResponse`): one line is one answer (a batch of
    /// events, at most what a lagging watcher catching up gets at once), so the client's answer
    /// limit (`EtcdHTTP.maximumBodySize`) bounds it too. Without a bound, a stream that never
    /// sends a newline would grow the buffer until memory runs out.
    init(url: URL, body: Data, token: String?, tls: EtcdTLSContext?, timeout: TimeInterval, maximumLineLength: Int) throws {
        let (lines, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
        self.lines = lines
        // gRPC metadata "hasleader": the member ends the stream when it loses its leader (cut off
        // from the majority), instead of keeping it open with no events ever coming.
        let exchange = try EtcdExchange(url: url, body: body, token: token, tls: tls,
                                        headers: ["Grpc-Metadata-Hasleader": "true"])
        self.exchange = exchange
        let room = room
        continuation.onTermination = { _ in
            room.stop()
            exchange.cancel()
        }
        // A stream has no body deadline, but a member that sends its head and then nothing (or
        // drips the first line forever) must not hold the watch forever: etcd sends the
        // creation at once, so without a first line by the deadline the exchange is cancelled.
        let start = EtcdWatchStart()
        EtcdHTTP.queue.asyncAfter(deadline: .now() + timeout) {
            if start.giveUpUnlessStarted() { exchange.cancel() }
        }
        EtcdHTTP.queue.async {
            let splitter = EtcdLineSplitter()
            do {
                _ = try exchange.run(headDeadline: Date().addingTimeInterval(timeout), bodyDeadline: nil) { chunk in
                    let lines = splitter.append(chunk)
                    if splitter.pendingCount > maximumLineLength {
                        throw EtcdError.malformedResponse("a watch line longer than \(maximumLineLength >> 20) MiB")
                    }
                    if !lines.isEmpty && !start.markStarted() { return }
                    for line in lines {
                        try room.waitForRoom()
                        continuation.yield(line)
                    }
                }
                // etcd's gateway ends a stream's error line without a newline. Anything else left
                // without one is a line the connection's end cut: a broken connection, which the
                // watch reopens, not an answer to read.
                if let rest = splitter.rest() {
                    guard (try? JSONSerialization.jsonObject(with: rest)) != nil else {
                        throw EtcdTransportError(description: "the watch stream closed in the middle of a line")
                    }
                    if start.markStarted() { continuation.yield(rest) }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: start.gaveUp
                    ? EtcdTransportError(description: "timed out: no watch creation within \(timeout) s") : error)
            }
        }
    }

    func close() {
        room.stop()
        exchange.cancel()
    }

    deinit { close() }

    /// The stream's lines, each one taken giving the reader room for the next. One iterator
    /// per connection.
    func makeLines() -> Lines { Lines(base: lines.makeAsyncIterator(), room: room) }

    struct Lines: AsyncIteratorProtocol {
        fileprivate var base: AsyncThrowingStream<Data, any Error>.Iterator
        fileprivate let room: LineRoom

        mutating func next() async throws -> Data? {
            let line = try await base.next()
            if line != nil { room.taken() }
            return line
        }
    }
}

/// How many more lines the reader may hand on before the consumer takes one: the reader's
/// thread waits for room, and stops waiting (and reading) once the watch is stopped.
final class LineRoom: Sendable {
    private let free: DispatchSemaphore
    private let stopped = Atomic<Bool>(false)

    init(lines: Int) { free = DispatchSemaphore(value: lines) }

    /// Waits until a line may be handed on; throws once the watch is stopped.
    func waitForRoom() throws {
        free.wait()
        guard !stopped.load(ordering: .acquiring) else {
            free.signal()   // any other wait ends too
            throw CancellationError()
        }
    }

    /// The consumer took a line.
    func taken() { free.signal() }

    /// The consumer stopped, or the connection closed.
    func stop() {
        stopped.store(true, ordering: .releasing)
        free.signal()
    }
}

/// Cuts a byte stream into non-empty lines as chunks arrive. Only new bytes are searched for
/// a newline, so a long line (a batch of thousands of events) costs one pass, not one per chunk.
final class EtcdLineSplitter: Sendable {
    private let state = Mutex<(buffer: Data, searched: Int)>((Data(), 0))

    /// The bytes held after the last newline: the line still coming.
    var pendingCount: Int { state.withLock { $0.buffer.count } }

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
