import Foundation

extension EtcdClient {
    /// Watches every key starting with `prefix`. See `watch(key:rangeEnd:startRevision:progressNotify:)`.
    ///
    /// ```swift
    /// for try await batch in client.watch(prefix: Array("items/".utf8), startRevision: applied + 1) { … }
    /// ```
    package func watch(prefix: [UInt8], startRevision: Int64 = 0,
                       progressNotify: Bool = false) -> AsyncThrowingStream<EtcdWatchBatch, any Error> {
        watch(key: EtcdPrefix.key(for: prefix), rangeEnd: EtcdPrefix.rangeEnd(for: prefix),
              startRevision: startRevision, progressNotify: progressNotify)
    }

    /// Watches `key` (or `[key, rangeEnd)`): the changes since `startRevision` (0: from now),
    /// then live changes, as batches in revision order.
    ///
    /// The stream reconnects by itself: when the member it reads from goes away or loses its
    /// leader (cut off from the majority), it resumes at another member (or the same one, back)
    /// from the revision after the last batch it delivered, so no change is lost or repeated. It ends with an error only when:
    /// - `EtcdError.compacted(revision:)`: the revision to resume from was compacted; read
    ///   everything again (`range(prefix:)`) and watch from that read's revision + 1;
    /// - `EtcdError.unreachable`: no member accepted the watch for `retryWindow`;
    /// - `EtcdError.rejected` / `.authenticationFailed`: etcd refused it.
    /// Stopping the iteration (or cancelling the consuming task) closes the HTTP stream.
    /// With `progressNotify`, etcd sends empty batches while nothing changes (every 10 minutes
    /// by default), which lets a caller record that it is up to date.
    ///
    /// ```swift
    /// for try await batch in client.watch(key: k, rangeEnd: end, startRevision: 100) {
    ///     for event in batch.events { print(event.kind, event.keyValue.modRevision) }
    /// }
    /// ```
    package func watch(key: [UInt8], rangeEnd: [UInt8]? = nil, startRevision: Int64 = 0,
                       progressNotify: Bool = false) -> AsyncThrowingStream<EtcdWatchBatch, any Error> {
        // A few batches ahead of the consumer at most: the watch reads on only as it takes them
        // (`deliver`), so a flooding member cannot fill this process's memory.
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: EtcdWatchBatch.self, throwing: (any Error).self,
                                                                    bufferingPolicy: .bufferingOldest(Self.bufferedBatches))
        var request: [String: Any] = ["key": Wire.base64(key)]
        if let rangeEnd { request["range_end"] = Wire.base64(rangeEnd) }
        if progressNotify { request["progress_notify"] = true }
        let template = WatchRequest(fields: request)
        let task = Task {
            do {
                try await self.runWatch(template, from: startRevision, into: continuation)
                continuation.finish()
            } catch is CancellationError {
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The create request without its start revision, which changes on every reconnection.
    struct WatchRequest: @unchecked Sendable {
        // @unchecked: holds only strings and booleans, never mutated after creation.
        let fields: [String: Any]

        func body(from revision: Int64) -> Data {
            var request = fields
            if revision > 0 { request["start_revision"] = String(revision) }
            return Wire.encode(["create_request": request])
        }
    }

    /// Opens, reads, and reopens after a lost connection, until cancelled or a final error.
    private func runWatch(_ request: WatchRequest, from startRevision: Int64,
                          into continuation: AsyncThrowingStream<EtcdWatchBatch, any Error>.Continuation) async throws {
        var next = startRevision
        var reopen = EtcdWatchReopen(requestTimeout: requestTimeout, retryWindow: retryWindow)
        while true {
            var (connection, lines, createdRevision) = try await openWatch(request, from: next)
            let opened = Date()
            var deliveredEvents = false
            if next == 0 { next = createdRevision + 1 }
            do {
                while let line = try await lines.next() {
                    guard var batch = try Self.batch(from: line) else { continue }
                    // Resume after the last event, not after the header's revision: etcd sends a
                    // lagging watcher its first ~1,000 revisions' events under the *current*
                    // revision (mvcc syncWatchers), so the header can run ahead of what was sent.
                    // Only an empty batch (a progress notification) vouches for its revision.
                    let seen = batch.events.map(\.keyValue.modRevision).max() ?? batch.revision
                    if !batch.events.isEmpty {
                        batch.events = Self.unseen(batch.events, from: next)
                        // Nothing new is not a progress notification: it is not delivered.
                        if batch.events.isEmpty { continue }
                        deliveredEvents = true
                    }
                    next = max(next, seen + 1)
                    try await Self.deliver(batch, into: continuation)
                }
            } catch let EtcdError.rejected(status, code, message)
                        where EtcdRefusal(status: status, code: code, message: message).isUnavailable {
                // The member lost its leader and ended the stream: reopen below, from `next`.
            } catch let error as EtcdError {
                throw error
            } catch {
                // The connection broke: reopen below, from `next`.
            }
            connection.close()
            // A member that keeps closing streams at once must not turn this into a busy loop,
            // nor into a watch that never delivers and never ends.
            try await Task.sleep(for: try reopen.pause(afterStreamOpenedAt: opened, deliveredEvents: deliveredEvents,
                                                       endpoints: endpoints.map(\.absoluteString)))
        }
    }

    /// `events` without those this watch delivered already: any before revision `next` (the
    /// one after the last event delivered), and a second copy of one event (same key, same
    /// revision) within the batch. etcd 3.4 before 3.4.24 (Debian's is 3.4.23) can send a
    /// watcher that catches up the same event twice (etcd pull request 15248); a reopened
    /// stream must not repeat what the last one sent either. Events of one revision on other
    /// keys (one transaction) are all kept.
    ///
    /// Events come in revision order, so a repeat is either behind the last one kept (dropped)
    /// or at its revision (compared with the few kept at that revision).
    static func unseen(_ events: [EtcdEvent], from next: Int64) -> [EtcdEvent] {
        var kept: [EtcdEvent] = []
        kept.reserveCapacity(events.count)
        for event in events {
            let revision = event.keyValue.modRevision
            guard revision >= max(next, kept.last?.keyValue.modRevision ?? next) else { continue }
            let repeated = kept.reversed().prefix { $0.keyValue.modRevision == revision }.contains { $0.keyValue.key == event.keyValue.key }
            if !repeated { kept.append(event) }
        }
        return kept
    }

    /// Batches a watch holds for its consumer before it stops reading.
    static let bufferedBatches = 2

    /// Hands `batch` on once the consumer has room for it: the stream keeps at most
    /// ``bufferedBatches`` (an `AsyncThrowingStream` tells a full buffer only by dropping the
    /// new element, so it is offered again, a few milliseconds later, until it is taken).
    static func deliver(_ batch: EtcdWatchBatch,
                        into continuation: AsyncThrowingStream<EtcdWatchBatch, any Error>.Continuation) async throws {
        while true {
            switch continuation.yield(batch) {
            case .enqueued: return
            case .terminated: throw CancellationError()
            case .dropped: try await Task.sleep(for: .milliseconds(2))
            @unknown default: return
            }
        }
    }

    /// Connects to the members in failover order until one confirms the watch is created;
    /// returns the connection, its lines after the first (one iterator per stream) and the
    /// revision the member was at. A refused token is replaced once per opening.
    private func openWatch(_ request: WatchRequest, from revision: Int64) async throws
        -> (EtcdWatchConnection, EtcdWatchConnection.Lines, Int64) {
        var mayReauthenticate = credentials != nil
        return try await withFailover { index in
            let token: String?
            do { token = try await tokenIfNeeded(at: index) }
            catch let EtcdError.unreachable(_, reason) { return .tryNext(reason) }
            let connection = try EtcdWatchConnection(url: endpoints[index].appending(path: "v3/watch"),
                                                     body: request.body(from: revision), token: token,
                                                     tls: http.tls, timeout: requestTimeout,
                                                     maximumLineLength: http.maximumBodySize)
            do {
                var lines = connection.makeLines()
                guard let first = try await lines.next() else {
                    throw EtcdTransportError(description: "the watch stream closed before it started")
                }
                return .done((connection, lines, try Self.created(from: first)))
            } catch let EtcdError.rejected(status, code, message) {
                connection.close()
                let refusal = EtcdRefusal(status: status, code: code, message: message)
                if refusal.isUnauthenticated && mayReauthenticate {
                    mayReauthenticate = false
                    dropToken(token)
                    return .tryNext("auth token refused")
                }
                if refusal.isUnavailable { return .tryNext(message) }
                throw refusal.error
            } catch let error as EtcdTransportError {
                connection.close()
                return .tryNext(error.description)
            } catch {
                connection.close()
                throw error
            }
        }
    }
}
