import Foundation
import SecStore
import Etcd

extension SyncEngine {
    /// Reads every key of the circle changed since the last applied revision (a range with
    /// `min_mod_revision`, so a compacted history does not matter: deletions travel as
    /// tombstones, never as etcd deletes) and applies it.
    func pull() async throws -> SyncReport {
        let applied = try store.syncRead { try $0.state().revision }
        let (changed, snapshot) = try await readAll(layout.all, minModRevision: applied + 1)
        return try apply(changed, upTo: snapshot)
    }

    /// The errors that make an authentic record one this store cannot keep (its contents break
    /// a rule here); any other error (a damaged local row, a locked class) stops the pass, so
    /// the record is applied later rather than skipped.
    static let unstorableHere: Set<SecStoreError.Code> = [.invalidParameter, .noSuchAttribute, .noSuchClass, .dataTooLarge]

    /// Every key under `prefix` (changed since `minModRevision`, when given), read in pages at
    /// one snapshot revision, and that revision.
    func readAll(_ prefix: [UInt8], minModRevision: Int64 = 0, keysOnly: Bool = false) async throws -> ([EtcdKeyValue], Int64) {
        try await etcd { try await client.rangeAll(prefix: prefix, minModRevision: minModRevision, keysOnly: keysOnly) }
    }

    /// Applies one record in a savepoint of its own. An authentic record this store cannot keep
    /// (a rule it breaks here) is reported and passed over: it stops neither the other records
    /// of a pull nor a push whose conflict brought it (docs/sync.md). Counted only once it is in
    /// (a rolled-back record counts as refused alone).
    func applyRecordOrRefuse(_ kv: EtcdKeyValue, tag: [UInt8], in session: SyncSession, report: inout SyncReport) throws {
        var counted = report
        do {
            try session.savepoint { try applyRecord(kv, tag: tag, in: session, report: &counted) }
            report = counted
        } catch let error as SecStoreError where Self.unstorableHere.contains(error.code) {
            report.refuse(kv.key, .unstorable)
            logger?.warning("sync: a record could not be stored here: \(error.code)")
        }
    }

    /// Applies changed keys in revision order: first grants that hand this device a new
    /// epoch's keys, then the circle entry is checked (``checkCircle(_:)``: a circle that moved
    /// on without this device, or back, stops the pass before anything is applied), then
    /// records, in one transaction per chunk; the applied revision moves to `revision` once all are in.
    func apply(_ changed: [EtcdKeyValue], upTo revision: Int64) throws -> SyncReport {
        var report = SyncReport()
        let sorted = changed.sorted { $0.modRevision < $1.modRevision }
        for kv in sorted {
            if case .grant(let epoch, let device) = layout.kind(of: kv.key), device == self.device {
                try adoptGrant(kv, epoch: epoch, report: &report)
            }
        }
        guard !settings.awaitingApproval else { return report }
        if let circle = sorted.last(where: { if case .circle = layout.kind(of: $0.key) { true } else { false } }) {
            try checkCircle(circle)
        }
        let records = sorted.filter { if case .record = layout.kind(of: $0.key) { true } else { false } }
        let chunks = stride(from: 0, to: records.count, by: 500).map { Array(records[$0..<min($0 + 500, records.count)]) }
        for (index, chunk) in chunks.enumerated() {
            let isLast = index == chunks.count - 1
            // Keys written by one etcd transaction share a revision and may straddle chunks.
            let reached = isLast ? revision : (chunk.last?.modRevision ?? 1) - 1
            try store.syncWrite { session in
                for kv in chunk {
                    guard case .record(let tag) = layout.kind(of: kv.key) else { continue }
                    try applyRecordOrRefuse(kv, tag: tag, in: session, report: &report)
                }
                try session.setState(enabled: true, revision: max(reached, try session.state().revision))
            }
        }
        if chunks.isEmpty && revision > 0 {
            try store.syncWrite { session in
                try session.setState(enabled: true, revision: max(revision, try session.state().revision))
            }
        }
        report.revision = revision
        for refusal in report.refusals { logger?.warning("sync: refused \(refusal)") }
        return report
    }
}
