import Foundation
import SecStore
import Etcd

extension SyncEngine {
    /// What the daemon's single loop reacts to, one at a time (so a push and an apply never
    /// interleave inside this process).
    private enum Wake: Sendable {
        case changes(EtcdWatchBatch)
        case tick
        case ended((any Error)?)
    }

    /// Syncs until cancelled: a pass, then a watch on the circle's keys from the revision
    /// after it, applying what arrives and pushing local changes (written by any process on
    /// this store) within `pushInterval`. A compacted revision means a catch-up pass and a
    /// new watch; etcd unreachable means retrying with backoff, while local writes go on.
    ///
    /// ```swift
    /// let daemon = Task { try await engine.run() }
    /// // … later
    /// daemon.cancel()
    /// ```
    package func run(pushInterval: Duration = .milliseconds(500), onPass: (@Sendable (SyncReport) -> Void)? = nil) async throws {
        var backoff = Duration.milliseconds(250)
        while !Task.isCancelled {
            do {
                let report = try await syncNow()
                onPass?(report)
                backoff = .milliseconds(250)
                try await follow(from: report.revision + 1, pushInterval: pushInterval, onPass: onPass)
            } catch is CancellationError {
                return
            } catch EtcdError.compacted {
                continue
            } catch SyncError.awaitingApproval {
                try await Task.sleep(for: pushInterval)
            } catch {
                // etcd down or refusing, the store busy or locked: local work goes on; try again later.
                logger?.warning("sync: \(error); retrying in \(backoff)")
                try await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(30))
            }
        }
    }

    /// Records, at most once a minute, that the daemon is following etcd: a device that
    /// stays up to date never reconciles (``reconcile()``).
    private func noteUpToDate() throws {
        let now = SyncVersion.microseconds(Date())
        try store.syncWrite { session in
            if now - (try session.syncedAt()) > 60_000_000 { try session.setSyncedAt(now) }
        }
    }

    private func follow(from start: Int64, pushInterval: Duration, onPass: (@Sendable (SyncReport) -> Void)?) async throws {
        // A few wakes ahead of this loop at most: the watcher takes the next batch only once
        // this loop has room for it, so the watch reads on only as batches are applied (a
        // flooding member fills no memory here; EtcdWatchConnection). A tick that finds no
        // room is dropped: the next one comes.
        let (wakes, continuation) = AsyncStream.makeStream(of: Wake.self, bufferingPolicy: .bufferingOldest(4))
        let watch = client.watch(prefix: layout.all, startRevision: start, progressNotify: true)
        let watcher = Task {
            /// Hands `wake` on once there is room (an `AsyncStream` tells a full buffer only by
            /// dropping the new element).
            func deliver(_ wake: Wake) async {
                while case .dropped = continuation.yield(wake) {
                    do { try await Task.sleep(for: .milliseconds(2)) } catch { return }
                }
            }
            do {
                for try await batch in watch { await deliver(.changes(batch)) }
                await deliver(.ended(nil))
            } catch {
                await deliver(.ended(error))
            }
        }
        let ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: pushInterval)
                continuation.yield(.tick)
            }
        }
        defer {
            watcher.cancel()
            ticker.cancel()
            continuation.finish()
        }
        var lastPurge = ContinuousClock.now
        for await wake in wakes {
            try Task.checkCancellation()
            switch wake {
            case .changes(let batch):
                // A batch's header revision can run ahead of its events (etcd sends a lagging
                // watcher's first events with the current revision): only an empty batch (a
                // progress notification) says everything up to its revision was seen.
                let reached = batch.events.map(\.keyValue.modRevision).max() ?? batch.revision
                onPass?(try apply(batch.events.filter { $0.kind == .put }.map(\.keyValue), upTo: reached))
                for event in batch.events where event.kind == .delete {
                    if case .record(let tag) = layout.kind(of: event.keyValue.key) { try markGone(tag, seenAt: event.keyValue.modRevision) }
                }
                // Up to date: events, or a progress notification (every 10 minutes at most when
                // nothing changes) that the watch is live.
                try noteUpToDate()
            case .tick:
                if try store.syncRead({ try $0.pendingCount() }) > 0 { onPass?(try await push()) }
                if ContinuousClock.now - lastPurge > .seconds(3600) {
                    lastPurge = .now
                    var report = SyncReport()
                    report.purged = try await purgeTombstones(
                        olderThan: SyncVersion.microseconds(Date()) - Self.microseconds(tombstoneRetention))
                    onPass?(report)
                }
            case .ended(let error):
                throw error ?? SyncError.etcd("the watch ended")
            }
        }
    }
}
