import ArgumentParser
import SecStore

/// `secstore keyring list`: SecStore's kernel keyring entries by store, never a key.
struct KeyringListCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show SecStore's entries in your kernel keyring, by store, and whether each store still exists.",
        discussion: """
        One line per store: its id (as `secstore info` shows it), a state, the entries' names \
        (ck, cku: afterFirstUnlock keys; session:<class>, presence: a shared unlock) and the \
        store file recorded beside them. No key is read or shown.

        States: exists (a recorded store file holds the store), gone (every recorded file is \
        missing or holds another store), empty (no key: only the location record, or an empty keyring, is left), unknown \
        (a recorded file could not be checked), unrecorded (no location record: written by an \
        older SecStore). `secstore keyring prune` removes the gone and empty ones.

        Examples:
          secstore keyring list
          secstore keyring list --json
          secstore keyring list --format tsv --no-headers
        """)

    @OptionGroup var output: OutputOptions
    @OptionGroup var noStore: KeyringStoreRefusal
    @OptionGroup var table: TableOutputOptions

    var wantsJSON: Bool { table.isJSON(output) }

    func validate() throws {
        try table.validate(json: output.json)
    }

    func run() throws {
        let survey = try KeyringSurvey.take()
        if wantsJSON {
            JSONOutput.print(["keyring": .string(survey.unavailable == nil ? "available" : "unavailable"),
                              "stores": .array(survey.stores.map(\.json))])
            return
        }
        if let unavailable = survey.unavailable {
            Console.note(unavailable)
        } else if survey.stores.isEmpty {
            Console.note("SecStore has no entries in your kernel keyring.")
        } else {
            Console.write(KeyringSurvey.table(survey.stores, style: table.style))
            survey.warnAboutUncheckedStores()
            let prunable = survey.stores.filter(\.prunable)
            if !prunable.isEmpty {
                let entries = Self.count(prunable.map(\.entryCount).reduce(0, +), "entry", plural: "entries")
                // As prune's own message: an empty store exists, and holds no key.
                let one = prunable.count == 1
                let why = prunable.allSatisfy({ $0.state == .empty }) ? (one ? "holds no key" : "hold no key")
                    : prunable.allSatisfy({ $0.state == .gone }) ? (one ? "is gone" : "are gone") : "are gone or hold no key"
                Console.note("`secstore keyring prune` removes the \(entries) of \(one ? "the store" : "the \(prunable.count) stores") that \(why).")
            }
        }
    }

    /// "1 store", "2 stores"; "1 entry", "3 entries".
    static func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) " + (number == 1 ? noun : plural ?? noun + "s")
    }
}
