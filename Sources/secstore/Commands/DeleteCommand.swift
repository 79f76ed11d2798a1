import ArgumentParser
import SecStore

/// `secstore delete`: removes one item, or every match with `--all`.
struct DeleteCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an item, or every matching item with --all.",
        discussion: """
        Deleting more than one item needs --all; without it the command fails with status 2 \
        and says how many items match. --all without --class covers both classes. At a \
        terminal, --all asks before deleting more than one item (--yes skips the question). \
        --dry-run shows what would be deleted and deletes nothing. With --glob, --service and \
        --account are shell patterns (*, ?, [a-z]; a backslash escapes). Each item is \
        authenticated before it is deleted, so a damaged item is reported, not silently \
        removed: remove an item that `secstore verify` reports as damaged with --ref REF --damaged.

        Examples:
          secstore delete -s api.example.com -a alice
          secstore delete --service api.example.com --all
          secstore delete --glob -s 'ci-*' --all --dry-run
          secstore delete --ref 67656e70c0ffee… --damaged
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var item: ItemOptions
    @Flag(name: .customLong("all"), help: "Delete every matching item (required when more than one matches).")
    var all = false
    @Flag(name: [.customShort("y"), .customLong("yes")], help: "Do not ask for confirmation at a terminal.")
    var yes = false
    @Flag(name: .customLong("dry-run"), help: "Show what would be deleted; delete nothing.")
    var dryRun = false
    @Flag(name: .customLong("glob"), help: "Read --service and --account as shell patterns (*, ?, [a-z]; \\ escapes).")
    var glob = false
    @Flag(name: .customLong("damaged"), help: "With --ref: delete the item without opening it (for damaged items).")
    var damaged = false
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if damaged && item.reference == nil {
            throw ValidationError("--damaged deletes one item by reference: add --ref REF (from `secstore verify`).")
        }
        if glob && item.reference != nil {
            throw ValidationError("--glob applies to --service and --account; --ref names one item.")
        }
    }

    func run() throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        if damaged, let reference = item.persistentReference {
            if dryRun {
                return report(wouldDelete: nil, references: [reference])
            }
            do {
                try session.store.removeDamagedItem(reference)
            } catch let error as SecStoreError where error.code == .itemNotFound {
                throw ItemSearch.notFound(item)
            }
            return report(deleted: 1)
        }
        // --all without a class means every item that matches, of both classes.
        let classes = item.resolvedClass(default: nil).map { [$0] } ?? (all ? ItemClass.allCases : [.genericPassword])
        let usesPatterns = glob && ItemClass.allCases.contains { !item.globQuery(for: $0, returning: []).filter.isEmpty }
        if dryRun {
            let matches = try session.unlockingIfNeeded {
                try ItemSearch.find(item, in: session.store, classes: classes, returning: [.attributes, .persistentReference],
                                    glob: usesPatterns)
            }
            try Self.requireCount(matches.count, item, all: all)
            return report(wouldDelete: ItemSearch.sorted(matches), references: [])
        }
        if all && !yes && Terminal.canPrompt {
            let matches = try session.unlockingIfNeeded {
                try ItemSearch.find(item, in: session.store, classes: classes, returning: [.persistentReference], glob: usesPatterns).count
            }
            if matches > 1, !(try Prompter.confirm("Delete \(matches) items?")) {
                throw CLIError(.failure, "Nothing was deleted.", name: "declined")
            }
        }
        let count = try session.unlockingIfNeeded {
            try session.store.write { transaction -> Int in
                if usesPatterns {
                    // Patterns are matched on the decrypted names, then each match is deleted
                    // by reference, all in this one transaction.
                    let references = try ItemSearch.references(item, in: transaction, classes: classes)
                    try Self.requireCount(references.count, item, all: all)
                    return try references.reduce(0) { $0 + (try transaction.deleteAll(matching: Query(persistentReference: $1))) }
                }
                let queries = classes.map { item.query(for: $0, returning: []) }
                try ItemSearch.requireMatches(of: queries, in: transaction, options: item, all: all, verb: "delete")
                return try queries.reduce(0) { $0 + (try transaction.deleteAll(matching: $1)) }
            }
        }
        report(deleted: count)
    }

    private static func requireCount(_ count: Int, _ item: ItemOptions, all: Bool) throws {
        if count == 0 { throw ItemSearch.notFound(item) }
        if count > 1 && !all {
            throw ItemSearch.ambiguous(count, item, fix: "Pass --all to delete every one, or narrow the query.")
        }
    }

    private func report(deleted count: Int) {
        if output.json {
            JSONOutput.print(["deleted": .int(count)])
        } else {
            Console.report("Deleted \(count) item\(count == 1 ? "" : "s").")
        }
    }

    /// `--dry-run`: the items that would be deleted (or the damaged item's reference).
    private func report(wouldDelete items: [Item]?, references: [PersistentReference]) {
        let count = items?.count ?? references.count
        if output.json {
            let listed: [JSONValue] = items?.map { ItemRendering.json($0, includeSecret: false) }
                ?? references.map { ["ref": .string($0.hexString)] }
            JSONOutput.print(["deleted": 0, "dryRun": true, "wouldDelete": .array(listed)])
            return
        }
        if let items {
            var table = Table(columns: ["Ref", "Class", "Service/Server", "Account", "Group"])
            for found in items {
                table.append([found.persistentReference?.hexString ?? "", found.itemClass.rawValue, ItemRendering.name(found),
                              ItemRendering.text(found.attributes[.account], for: .account),
                              ItemRendering.text(found.attributes[.accessGroup], for: .accessGroup)])
            }
            Console.write(table.render())
        } else {
            for reference in references { Console.line(reference.hexString) }
        }
        Console.report("Would delete \(count) item\(count == 1 ? "" : "s") (dry run: nothing was deleted).")
    }
}
