import ArgumentParser
import SecStore

/// `secstore verify`: SQLite's integrity check plus authenticating every sealed blob.
struct VerifyCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the store file and every item; list damaged items.",
        discussion: """
        Runs SQLite's integrity check, then opens every item's sealed attributes and secret. \
        Damaged items are listed by persistent reference and the command exits with status 7; \
        nothing is removed (use `secstore delete --ref REF --damaged`, or restore from a backup). \
        Items in locked classes cannot be checked without the passphrase and are counted apart.

        The store keeps a keyed digest over all its items: when items were deleted, reverted \
        to an older version or copied in behind SecStore's back, verify says so. Once you \
        have checked the items (and restored what is missing from a backup), \
        --accept-current-items records them as they are; it refuses while items are damaged.

        Examples:
          secstore verify
          secstore verify --passphrase-file ~/.config/secstore/pass --json
          secstore verify --accept-current-items
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var passphrase: PassphraseOptions
    @Flag(name: .customLong("accept-current-items"), help: "When the items no longer match the store's digest and nothing else is wrong, record them as they are.")
    var acceptCurrentItems = false
    @OptionGroup var output: OutputOptions

    func run() throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        let bar = ProgressBar(label: "Verifying")
        defer { bar.finish() }
        var report = try session.store.verify(progress: bar.update)
        bar.finish()
        if acceptCurrentItems && !report.itemsMatchDigest {
            // The digest's own line is then the only database problem.
            guard report.damagedItems.isEmpty && report.databaseProblems.count == 1 else {
                throw CLIError(.damaged, "Not accepted: the store has damage besides the digest. Remove or restore the damaged items first (`secstore delete --ref REF --damaged`).")
            }
            try session.store.acceptCurrentItems()
            report = try session.store.verify()
            Console.note("Recorded the items as they are now in the store's digest.")
        }
        if output.json {
            JSONOutput.print([
                "intact": .bool(report.isIntact), "verifiedItems": .int(report.verifiedItems),
                "itemsMatchDigest": .bool(report.itemsMatchDigest),
                "databaseProblems": .array(report.databaseProblems.map(JSONValue.string)),
                "damagedItems": .array(report.damagedItems.map {
                    ["ref": .string($0.persistentReference.hexString), "problem": .string($0.problem)]
                }),
                "lockedItems": .array(report.lockedItems.map { .string($0.hexString) }),
            ])
        } else {
            Console.write(text(report))
        }
        guard report.isIntact else {
            let damage = report.damagedItems.count
            var advice = "Restore from a backup (`secstore import`) or delete damaged items with `secstore delete --ref REF --damaged`"
            if !report.itemsMatchDigest {
                advice += "; once the items are as they should be, `secstore verify --accept-current-items`"
            }
            Console.error("The store is damaged: \(damage) damaged item\(damage == 1 ? "" : "s")\(report.databaseProblems.isEmpty ? "" : " and database problems"). \(advice).")
            throw ExitCode(ExitStatus.damaged.rawValue)
        }
    }

    private func text(_ report: VerificationReport) -> String {
        var text = ""
        for problem in report.databaseProblems { text += "database: \(Table.sanitize(problem))\n" }
        if !report.damagedItems.isEmpty {
            var table = Table(columns: ["Ref", "Problem"])
            for item in report.damagedItems { table.append([item.persistentReference.hexString, item.problem]) }
            text += table.render()
        }
        text += "Verified \(report.verifiedItems) item\(report.verifiedItems == 1 ? "" : "s"): "
        text += report.isIntact ? "no damage found.\n" : "\(report.damagedItems.count) damaged.\n"
        if !report.lockedItems.isEmpty {
            text += "Not checked: \(report.lockedItems.count) item\(report.lockedItems.count == 1 ? "" : "s") in locked classes (pass the store passphrase to check them).\n"
        }
        return text
    }
}
