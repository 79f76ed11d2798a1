import ArgumentParser
import SecStore

/// `secstore keyring prune`: removes the kernel keyring entries of stores that are gone.
struct KeyringPruneCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove the kernel keyring entries of stores that no longer exist (--all: of every store).",
        discussion: """
        Beside its keys, SecStore records in the keyring where the store file and its device \
        key were. A store's entries are removed only when every recorded file is missing, or \
        opening it with the recorded device key shows another store. Entries are kept when a \
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
        let kept = survey.stores.filter { !(all || $0.prunable) }
        var removed = 0
        if !dryRun, !doomed.isEmpty {
            // A keyring seen empty is removed only if it still is (an unlock may have begun
            // filling it meanwhile), unless --all removes everything anyway.
            let emptyKeyrings = all ? [] : Set(doomed.filter(\.isEmptyKeyring).map(\.storeID))
            removed = try FirstUnlockCache.removeKeyringEntries(ofStores: Set(doomed.map(\.storeID)).subtracting(emptyKeyrings))
                + (all ? doomed.filter(\.isEmptyKeyring).count : FirstUnlockCache.removeEmptyStoreKeyrings(emptyKeyrings))
        }
        if output.json {
            JSONOutput.print([
                "keyring": .string(survey.unavailable == nil ? "available" : "unavailable"),
                "dryRun": .bool(dryRun), "all": .bool(all),
                "removedEntries": .int(dryRun ? 0 : removed),
                (dryRun ? "wouldRemove" : "removed"): .array(doomed.map(\.json)),
                "kept": .array(kept.map(\.json)),
            ])
            return
        }
        if let unavailable = survey.unavailable {
            Console.note(unavailable)
            return
        }
        survey.warnAboutUncheckedStores()
        let stores = KeyringListCommand.count(doomed.count, "store")
        if doomed.isEmpty {
            Console.report(survey.stores.isEmpty ? "Nothing to prune: SecStore has no entries in your kernel keyring."
                                               : "Nothing to prune: every store with entries exists, or could not be checked.")
        } else if dryRun {
            Console.write(KeyringSurvey.table(doomed))
            Console.line("Would remove \(KeyringListCommand.count(doomed.map(\.entryCount).reduce(0, +), "entry", plural: "entries")) of \(stores).")
        } else {
            let why = all ? "" : doomed.allSatisfy({ $0.state == .empty }) ? " that held no key"
                : !doomed.allSatisfy({ $0.state == .gone }) ? " that no longer exist or held no key"
                : doomed.count == 1 ? " that no longer exists" : " that no longer exist"
            Console.report("Removed \(KeyringListCommand.count(removed, "entry", plural: "entries")) of \(stores)\(why).")
        }
        if !all, kept.contains(where: { $0.state == .unrecorded }) {
            Console.note("Kept entries without a location record (written by an older SecStore): `secstore --store PATH lock` or `secstore keyring prune --all` removes them, and so does a reboot.")
        }
    }
}
