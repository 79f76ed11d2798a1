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

        Examples:
          secstore verify
          secstore verify --passphrase-file ~/.config/secstore/pass --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        let bar = ProgressBar(label: "Verifying")
        defer { bar.finish() }
        let report = try session.store.verify(progress: bar.update)
        bar.finish()
        if output.json {
            JSONOutput.print([
                "intact": .bool(report.isIntact), "verifiedItems": .int(report.verifiedItems),
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
            Console.error("The store is damaged: \(damage) damaged item\(damage == 1 ? "" : "s")\(report.databaseProblems.isEmpty ? "" : " and database problems"). Restore from a backup (`secstore import`) or delete damaged items with `secstore delete --ref REF --damaged`.")
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
