import ArgumentParser
import Foundation
import SecStore

/// `secstore get`: one item's secret, raw on standard output.
struct GetCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print one item's secret (raw), or the item as JSON.",
        discussion: """
        Writes the secret's bytes to standard output unchanged; when standard output is a \
        terminal and the secret does not end in a newline, one is added for readability. \
        Exactly one item must match: narrow the query, or name the item with --ref.

        Examples:
          secstore get --service api.example.com --account ci
          TOKEN=$(secstore get --service api --account ci --passphrase-file ~/.pass)
          secstore get --class inet --server example.com --account alice --json
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var item: ItemOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        let found = try session.unlockingIfNeeded { () throws -> Item in
            let matches = try ItemSearch.find(item, in: session.store, classes: ItemSearch.classes(item, default: .genericPassword),
                                              returning: [.attributes, .persistentReference])
            guard let match = matches.first else { throw ItemSearch.notFound(item) }
            guard matches.count == 1 else {
                throw ItemSearch.ambiguous(matches.count, item, fix: "Narrow the query (--group, --account, …) or name one with --ref; `secstore list --refs` shows them.")
            }
            // Only the one item's secret is decrypted.
            var withSecret = match
            withSecret.data = try session.store.items(matching: Query(persistentReference: match.persistentReference!, returning: .data))[0].data
            return withSecret
        }
        if output.json {
            JSONOutput.print(ItemRendering.json(found, includeSecret: true))
            return
        }
        let secret = found.data ?? Data()
        Console.writeBytes(secret)
        if Terminal.standardOutputIsTerminal, secret.last != UInt8(ascii: "\n") { Console.write("\n") }
    }
}
