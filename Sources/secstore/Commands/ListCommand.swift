import ArgumentParser
import Foundation
import SecStore

/// `secstore list`: the items' attributes, never their secrets unless asked.
struct ListCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List items (attributes only) matching the filters.",
        discussion: """
        Without --class, lists both generic (genp) and internet (inet) passwords. Every filter \
        must match exactly; with --glob, --service and --account are shell patterns (*, ?, \
        [a-z]; a backslash escapes), matched on the decrypted names. Items in every access \
        group are listed. Lists nothing (and exits 0) when no item matches. If a matching \
        item's class is locked, the passphrase is needed.

        Examples:
          secstore list
          secstore list -s api.example.com
          secstore list --glob -s 'api.*' -a 'ci-?'
          secstore list --class inet --server example.com --json
          secstore list --group ABCDE12345.com.example.shared --refs
          secstore list --format tsv --no-headers | cut -f2,3
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var item: ItemOptions
    @Flag(name: .customLong("refs"), help: "Show each item's persistent reference.")
    var showReferences = false
    @Flag(name: .customLong("show-secrets"), help: "Also print each item's secret.")
    var showSecrets = false
    @Flag(name: .customLong("glob"), help: "Read --service and --account as shell patterns (*, ?, [a-z]; \\ escapes).")
    var glob = false
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var table: TableOutputOptions

    var wantsJSON: Bool { table.isJSON(output) }

    func validate() throws {
        try table.validate(json: output.json)
        if glob && item.reference != nil {
            throw ValidationError("--glob applies to --service and --account; --ref names one item.")
        }
    }

    func run() throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        var returning: ReturnOptions = [.attributes, .persistentReference]
        if showSecrets { returning.insert(.data) }
        // A damaged item does not hide the others: they are listed, the damage is reported
        // after them, and the exit status says so (7).
        let found = try session.unlockingIfNeeded {
            try ItemSearch.findReportingDamage(item, in: session.store, classes: ItemSearch.classes(item, default: nil),
                                               returning: returning, glob: glob)
        }
        let items = ItemSearch.sorted(found.items)
        if wantsJSON {
            JSONOutput.printArray(items) { ItemRendering.json($0, includeSecret: showSecrets) }
            return reportDamage(found)
        }
        guard !items.isEmpty else {
            if !found.isPartial { Console.note("No items match.") }
            return reportDamage(found)
        }
        var columns = ["Class", "Service/Server", "Account", "Group", "Accessibility", "Label", "Modified"]
        if showReferences { columns.insert("Ref", at: 0) }
        if showSecrets { columns.append("Secret") }
        var rendered = Table(columns: columns)
        for found in items {
            let attributes = found.attributes
            var row = [found.itemClass.rawValue, ItemRendering.name(found),
                       ItemRendering.text(attributes[.account], for: .account),
                       ItemRendering.text(attributes[.accessGroup], for: .accessGroup),
                       ItemRendering.text(attributes[.accessible], for: .accessible),
                       ItemRendering.text(attributes[.label], for: .label),
                       ItemRendering.text(attributes[.modificationDate], for: .modificationDate)]
            if showReferences { row.insert(found.persistentReference?.hexString ?? "", at: 0) }
            if showSecrets { row.append(ItemRendering.secretText(found.data)) }
            rendered.append(row)
        }
        Console.write(rendered.render(self.table.style))
        reportDamage(found)
    }

    /// Names each damaged item on standard error and ends with status 7 (damaged), after
    /// the intact items were listed (standard output keeps only the listing, JSON included).
    private func reportDamage(_ report: ItemSearch.DamageReport) {
        guard report.isPartial else { return }
        for reference in report.damaged {
            Console.error("Item \(reference.hexString) is damaged (it fails authentication, or its row is malformed) and is not listed. Run `secstore verify`, then restore it or remove it with `secstore delete --ref \(reference.hexString) --damaged`.")
        }
        DamageReporting.reportUnnamedRows(report.malformedRows, "is not listed", "are not listed")
        Foundation.exit(ExitStatus.damaged.rawValue)
    }
}
