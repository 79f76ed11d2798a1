import Foundation
internal import GRDB

/// What ``SecretStore/verify(progress:)`` found.
///
/// ```swift
/// let report = try owner.verify()
/// if !report.isIntact || !report.itemsMatchDigest { print(report.databaseProblems, report.damagedItems.count) }
/// ```
public struct VerificationReport: Sendable, Hashable {
    /// What SQLite's `PRAGMA integrity_check` reported; empty when the file is sound.
    public var databaseProblems: [String]
    /// Items whose blobs were opened and authenticated.
    public var verifiedItems: Int
    /// Items that failed authentication: damaged or altered.
    public var damagedItems: [DamagedItem]
    /// Items whose class is locked, so their blobs could not be checked.
    public var lockedItems: [PersistentReference]
    /// False when the items do not match the store's keyed digest over them: items were
    /// deleted, reverted to an older version or copied in, inside the file, behind
    /// SecStore's back (also listed in ``databaseProblems``). See
    /// ``SecretStore/acceptCurrentItems()``.
    public var itemsMatchDigest = true

    /// No damage found (locked items are not damage, but were not checked).
    public var isIntact: Bool { databaseProblems.isEmpty && damagedItems.isEmpty }

    /// An item whose sealed attributes or secret failed authentication.
    ///
    /// ```swift
    /// for damaged in try owner.verify().damagedItems {
    ///     print(damaged.persistentReference.hexString, damaged.problem)
    /// }
    /// ```
    public struct DamagedItem: Sendable, Hashable {
        /// The damaged item, to pass to ``SecretStore/removeDamagedItem(_:)``.
        public var persistentReference: PersistentReference
        /// What failed, without any secret: "attributes failed authentication", ….
        public var problem: String
    }
}

extension SecretStore {
    /// Checks the whole store: SQLite's integrity check, then every item's sealed blobs.
    /// Damaged items are listed by persistent reference, never removed.
    ///
    /// ```swift
    /// let report = try SecretStore(at: url, options: .init(access: .owner)).verify()
    /// for item in report.damagedItems { print(item.persistentReference, item.problem) }
    /// ```
    ///
    /// - Throws: ``SecStoreError`` `missingEntitlement` unless the handle has owner access.
    public func verify(progress: ((OperationProgress) -> Void)? = nil) throws -> VerificationReport {
        return try guarded {
            let scanner = RowScanner(engine: engine)
            try RowScanner.requireOwner(options.access, "Verifying a store")
            return try engine.database.read { db in
                let problems = try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
                var report = VerificationReport(databaseProblems: problems, verifiedItems: 0, damagedItems: [], lockedItems: [])
                try engine.vault.reloadIfChanged(db)
                let damagedClasses = try engine.vault.damagedClasses()
                report.databaseProblems += damagedClasses.sorted { $0.key.code < $1.key.code }
                    .map { "the key record \(KeyRecord.name(for: $0.key)) \($0.value): its class's items cannot be read" }
                let total = try scanner.count(in: db)
                var done = 0
                let malformed = { (id: Int64, reference: PersistentReference?) in
                    if let reference {
                        // A row moved to another id still authenticates; say what is wrong with it.
                        let problem = StoredItem.rowID(of: reference) == id ? "its row is malformed" : "its row id (\(id)) does not match its reference"
                        report.damagedItems.append(.init(persistentReference: reference, problem: problem))
                    } else {
                        report.databaseProblems.append("row \(id) of the items table is malformed and names no item")
                    }
                    done += 1
                }
                let rowsMatchDigest = try scanner.forEachRow(in: db, malformed: malformed) { row in
                    do {
                        let attributes = try scanner.open(row, in: db).attributes
                        report.verifiedItems += 1
                        if try !scanner.customTagsMatch(row, attributes, in: db) {
                            report.damagedItems.append(.init(persistentReference: row.persistentReference,
                                                             problem: "its free-form attribute index does not match its attributes (searches by them may miss it)"))
                        }
                    } catch let error as SecStoreError where error.code == .interactionNotAllowed || error.code == .authenticationFailed {
                        report.lockedItems.append(row.persistentReference)
                    } catch let error as SecStoreError where error.code == .corruptData {
                        let problem = damagedClasses[row.accessibility] != nil
                            ? "its class key (\(KeyRecord.name(for: row.accessibility))) is damaged"
                            : "its \((error.part ?? .attributes).rawValue) failed authentication"
                        report.damagedItems.append(.init(persistentReference: row.persistentReference, problem: problem))
                    }
                    done += 1
                    if done % 256 == 0 || done == total { progress?(OperationProgress(completed: done, total: total)) }
                }
                let orphans = try ItemsTable.orphanCustomTagCount(in: db)
                if orphans > 0 {
                    report.databaseProblems.append("\(orphans) free-form attribute index entries name no item")
                }
                if !rowsMatchDigest {
                    report.itemsMatchDigest = false
                    report.databaseProblems.append(ItemsDigest.mismatchProblem)
                }
                return report
            }
        }
    }

    /// Records the items as they are now in the store's digest over them, after
    /// ``verify(progress:)`` reported that they no longer match it and the owner has checked
    /// what is there (restored what was missing, removed what is damaged). Owner access only.
    ///
    /// ```swift
    /// let report = try ownerStore.verify()
    /// if !report.itemsMatchDigest, report.damagedItems.isEmpty {
    ///     try ownerStore.acceptCurrentItems()   // after checking the items by hand
    /// }
    /// ```
    ///
    /// Whatever was deleted, reverted or copied in stays so: this only stops reporting it.
    public func acceptCurrentItems() throws {
        try guarded {
            try RowScanner.requireOwner(options.access, "Accepting the items as they are")
            try engine.database.write { db in try engine.vault.itemsDigest.reset(in: db) }
        }
    }

    /// Deletes one item by persistent reference without opening it: the way to remove an
    /// item ``verify(progress:)`` reported as damaged. Owner access only.
    ///
    /// ```swift
    /// for damaged in try ownerStore.verify().damagedItems {
    ///     try ownerStore.removeDamagedItem(damaged.persistentReference)
    /// }
    /// ```
    ///
    /// - Throws: ``SecStoreError`` `itemNotFound` when no row has that reference.
    public func removeDamagedItem(_ reference: PersistentReference) throws {
        try guarded {
            try RowScanner.requireOwner(options.access, "Removing an item without opening it")
            try engine.database.write { db in
                if try !ItemsTable.delete(reference: reference, digest: engine.vault.itemsDigest, in: db) { throw SecStoreError.notFound }
            }
        }
    }
}
