import ArgumentParser
import Foundation
import SecStore

/// `secstore keyring prune`: removes the kernel keyring entries of stores that are gone.
struct KeyringPruneCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove the kernel keyring entries of stores that no longer exist (--all: of every store).",
        discussion: """
        Beside its keys, SecStore records in the keyring where the store file and its device \
        key were. A store's entries are removed only when every recorded file is missing, or \
        opening it with the recorded device key shows another store, or when they hold no key \
        (only the location record, or an empty keyring, is left). Entries are kept when a \
        file cannot be checked (busy, damaged, unreadable: a warning says which) and when no \
        location was recorded (an older SecStore wrote them). Removing entries loses no data: \
        that store is locked as after a reboot, and `secstore unlock` shares it again.

        --all removes every SecStore entry, as `secstore lock` on every store would. Run this \
        when `secstore unlock` reports a full key quota (EDQUOT).

        Examples:
          secstore keyring prune
          secstore keyring prune --dry-run
          secstore keyring prune --all --json
        """)

    @Flag(name: .customLong("all"), help: "Remove every SecStore entry, of every store (as `secstore lock` on each).")
    var all = false
    @Flag(name: .customLong("dry-run"), help: "Say what would be removed; remove nothing.")
    var dryRun = false
    @OptionGroup var output: OutputOptions
    @OptionGroup var noStore: KeyringStoreRefusal

    func run() throws {
        let survey = try KeyringSurvey.take()
        let doomed = survey.stores.filter { all || $0.prunable }
        var kept = survey.stores.filter { !(all || $0.prunable) }
        var removed = 0
        var pruned = doomed, filled: [KeyringSurvey.Store] = []
        if !dryRun, !doomed.isEmpty {
            let removedStores: Set<UUID>
            (removedStores, removed) = try remove(doomed)
            pruned = doomed.filter { removedStores.contains($0.storeID) }
            filled = doomed.filter { !removedStores.contains($0.storeID) }
            kept += filled.map { store in
                var store = store
                store.note = "it held keys when prune came to remove it: an unlock shared them meanwhile"
                return store
            }
        }
        if output.json {
            JSONOutput.print([
                "keyring": .string(survey.unavailable == nil ? "available" : "unavailable"),
                "dryRun": .bool(dryRun), "all": .bool(all),
                "removedEntries": .int(dryRun ? 0 : removed),
                (dryRun ? "wouldRemove" : "removed"): .array(pruned.map(\.json)),
                "kept": .array(kept.map(\.json)),
            ])
            return
        }
        if let unavailable = survey.unavailable {
            Console.note(unavailable)
            return
        }
        survey.warnAboutUncheckedStores()
        let stores = KeyringListCommand.count(pruned.count, "store")
        if doomed.isEmpty {
            Console.report(survey.stores.isEmpty ? "Nothing to prune: SecStore has no entries in your kernel keyring."
                                               : "Nothing to prune: every store with entries exists, or could not be checked.")
        } else if dryRun {
            Console.write(KeyringSurvey.table(doomed))
            Console.line("Would remove \(KeyringListCommand.count(doomed.map(\.entryCount).reduce(0, +), "entry", plural: "entries")) of \(stores).")
        } else if !pruned.isEmpty {
            let why = all ? "" : pruned.allSatisfy({ $0.state == .empty }) ? " that held no key"
                : !pruned.allSatisfy({ $0.state == .gone }) ? " that no longer exist or held no key"
                : pruned.count == 1 ? " that no longer exists" : " that no longer exist"
            Console.report("Removed \(KeyringListCommand.count(removed, "entry", plural: "entries")) of \(stores)\(why).")
        }
        if !filled.isEmpty {
            let message = "Kept \(KeyringListCommand.count(filled.count, "store")) that held no key when listed, and keys when prune came to remove \(filled.count == 1 ? "it" : "them"): an unlock shared them meanwhile."
            if pruned.isEmpty { Console.report(message) } else { Console.note(message) }
        }
        if !all, kept.contains(where: { $0.state == .unrecorded }) {
            Console.note("Kept entries without a location record (written by an older SecStore): `secstore --store PATH lock` or `secstore keyring prune --all` removes them, and so does a reboot.")
        }
    }

    /// Removes the entries of `doomed`. Returns the stores whose entries were removed — with
    /// `--all` every one, else the gone ones and the empty ones that still held no key (an
    /// unlock may have put its first key in one since the survey) — and how many entries went.
    private func remove(_ doomed: [KeyringSurvey.Store]) throws -> (stores: Set<UUID>, entries: Int) {
        let ids = Set(doomed.map(\.storeID))
        if all {
            // As `secstore lock` on every store: nothing is looked at again.
            return (ids, try FirstUnlockCache.removeKeyringEntries(ofStores: ids) + doomed.filter(\.isEmptyKeyring).count)
        }
        // The empty ones first: when they cannot be removed safely (the keyring lock cannot be
        // taken), nothing is.
        let empty = try FirstUnlockCache.removeEmptyStores(Set(doomed.filter { $0.state == .empty }.map(\.storeID)))
        let gone = ids.subtracting(doomed.filter { $0.state == .empty }.map(\.storeID))
        let entries = gone.isEmpty ? 0 : try FirstUnlockCache.removeKeyringEntries(ofStores: gone)
        return (empty.stores.union(gone), empty.entries + entries)
    }
}
