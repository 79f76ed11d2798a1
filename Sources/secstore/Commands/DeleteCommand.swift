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
        terminal, --all asks before deleting more than one item (--yes skips the question). Each item is authenticated before it is deleted, so a \
        damaged item is reported, not silently removed: remove an item that `secstore verify` \
        reports as damaged with --ref REF --damaged.

        Examples:
          secstore delete --service api.example.com --account alice
          secstore delete --service api.example.com --all
          secstore delete --ref 67656e70c0ffee… --damaged
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var item: ItemOptions
    @Flag(name: .customLong("all"), help: "Delete every matching item (required when more than one matches).")
    var all = false
    @Flag(name: .customLong("yes"), help: "With --all: do not ask for confirmation at a terminal.")
    var yes = false
    @Flag(name: .customLong("damaged"), help: "With --ref: delete the item without opening it (for damaged items).")
    var damaged = false
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if damaged && item.reference == nil {
            throw ValidationError("--damaged deletes one item by reference: add --ref REF (from `secstore verify`).")
        }
    }

    func run() throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        let count: Int
        if damaged, let reference = item.persistentReference {
            do {
                try session.store.removeDamagedItem(reference)
            } catch let error as SecStoreError where error.code == .itemNotFound {
                throw ItemSearch.notFound(item)
            }
            count = 1
        } else {
            // --all without a class means every item that matches, of both classes.
            let classes = item.resolvedClass(default: nil).map { [$0] } ?? (all ? ItemClass.allCases : [.genericPassword])
            let queries = classes.map { item.query(for: $0, returning: []) }
            if all && !yes && Terminal.canPrompt {
                let matches = try session.unlockingIfNeeded {
                    try queries.reduce(0) { $0 + (try session.store.find($1).count) }
                }
                if matches > 1, !(try Prompter.confirm("Delete \(matches) items?")) {
                    throw CLIError(.failure, "Nothing was deleted.", name: "declined")
                }
            }
            count = try session.unlockingIfNeeded {
                try session.store.write { transaction -> Int in
                    try ItemSearch.requireMatches(of: queries, in: transaction, options: item, all: all, verb: "delete")
                    return try queries.reduce(0) { $0 + (try transaction.deleteAll(matching: $1)) }
                }
            }
        }
        if output.json {
            JSONOutput.print(["deleted": .int(count)])
        } else {
            Console.line("Deleted \(count) item\(count == 1 ? "" : "s").")
        }
    }
}
