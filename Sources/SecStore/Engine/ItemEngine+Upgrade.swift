import Foundation
internal import GRDB

extension ItemEngine {
    /// Seals the rows still in format version 1 (from before the migration to version 2)
    /// again in the current format, for the classes readable now: after that, their two blobs
    /// are bound together and padded like every new row. Rows of locked classes wait for the
    /// next unlock; damaged rows are left for `verify` to report.
    ///
    /// Runs in transactions of a few hundred rows, so other writers wait little, and each row
    /// is upgraded whole or not at all. Returns how many rows were upgraded.
    @discardableResult
    func upgradeVersion1Rows() throws -> Int {
        // Without opening class keys: a store with no such rows (every store made since) opens
        // only the classes it reads.
        let readable = Accessibility.allCases.filter(vault.mayRead)
        // On the writer, already open: part of opening a store (docs/performance.md, "Open").
        guard !readable.isEmpty, try database.readOnWriter({ try ItemsTable.hasVersion1Rows(of: readable, in: $0) }) else { return 0 }
        var upgraded = 0
        var after: Int64 = 0
        while true {
            let (done, last) = try database.write { db -> (Int, Int64?) in
                try beginWrite(db)
                var done = 0
                let (rows, last) = try ItemsTable.version1Rows(of: readable, after: after, limit: 256, path: database.path, in: db)
                for row in rows {
                    guard var opened = try? RowScanner(engine: self).open(row, in: db) else { continue }
                    defer { Wipe.data(&opened.secret) }
                    let keys = try vault.itemKeys(for: row.accessibility, in: db)
                    let prepared = try seal(row: row, attributes: opened.attributes, secret: opened.secret, keys: keys)
                    try ItemsTable.updateSealedRow(prepared.row, metadata: prepared.metadata, secret: prepared.secret,
                                                   digest: vault.itemsDigest, in: db)
                    done += 1
                }
                return (done, last)
            }
            upgraded += done
            guard let last else { return upgraded }
            after = last
        }
    }
}
