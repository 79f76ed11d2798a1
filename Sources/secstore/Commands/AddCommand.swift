import ArgumentParser
import Foundation
import SecStore

/// `secstore add`: a new item with a secret from standard input, a file or the prompt.
struct AddCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add an item.",
        discussion: """
        The secret comes from --value-stdin, --value-file, or a prompt without echo (asked \
        twice). --value also works but is visible to other users in the process list.

        The item goes into --group, else the default group of the entitlements file named by \
        $SECSTORE_ENTITLEMENTS (its first keychain-access-groups entry, else its \
        application-identifier: where SecItemAdd puts it), else the group local.secstore. Its accessibility is \
        whenUnlocked unless --accessibility says otherwise. Fails with status 4 if an item with \
        the same class, names and group exists, unless --update asks to replace its secret \
        (and the attributes given) in the same transaction.

        Examples:
          secstore add --service api.example.com --account alice
          secstore add -s api -a ci --update --value-file token.txt
          printf %s "$TOKEN" | secstore add --service api --account ci --value-stdin
          secstore add --server example.com --protocol https --account alice
          secstore add --service sync --account daemon --value-file token.txt \\
              --accessibility afterFirstUnlock
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var item: ItemOptions
    @OptionGroup var details: ItemDetailOptions
    @Flag(name: .customLong("update"), help: "Replace the item if it exists (its secret and the attributes given): add or replace in one call.")
    var update = false
    @OptionGroup var secret: SecretInputOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if item.reference != nil {
            throw ValidationError("--ref names an existing item; a new item is named by --service/--server and --account.")
        }
        if secret.stdin && passphrase.stdin {
            throw ValidationError("--value-stdin and --passphrase-stdin cannot share standard input. Use --passphrase-file or --passphrase-env.")
        }
    }

    func run() throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        let itemClass = item.resolvedClass() ?? .genericPassword
        let attributes = try item.newItemAttributes(details)
        if !secret.isGiven || secret.prompt {
            try session.unlockBeforeAskingForASecret(of: attributes.accessibility ?? .whenUnlocked)
        }
        var value = try secret.read()
        defer { value.resetBytes(in: 0..<value.count) }
        let newItem = Item(itemClass: itemClass, attributes: attributes, data: value)
        let (added, replaced) = try session.unlockingIfNeeded {
            try ItemWriter.add(newItem, replacing: update, in: session.store)
        }
        Self.report(added, replaced: replaced, update: update, output: output)
    }

    /// The added item as JSON (with `"replaced"` under `--update`, and the secret when one is
    /// given), or a sentence.
    static func report(_ item: Item, replaced: Bool, update: Bool, output: OutputOptions, secret: Data? = nil) {
        if output.json {
            var json = ItemRendering.json(item, includeSecret: false)
            if case .object(var object) = json {
                if update { object["replaced"] = .bool(replaced) }
                if let secret { object.merge(ItemRendering.secretFields(secret)) { $1 } }
                json = .object(object)
            }
            JSONOutput.print(json)
        } else {
            Console.report("\(replaced ? "Replaced" : "Added") \(item.itemClass.rawValue) item (\(describe(item))) \(replaced ? "in" : "to") group \(item.attributes.accessGroup ?? "").")
        }
    }

    static func describe(_ item: Item) -> String {
        let name = item.itemClass == .genericPassword ? "service" : "server"
        return "\(name) \"\(Table.sanitize(ItemRendering.name(item)))\", account \"\(Table.sanitize(item.attributes.account ?? ""))\""
    }
}
