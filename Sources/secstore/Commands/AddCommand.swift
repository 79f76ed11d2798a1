import ArgumentParser
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
        the same class, names and group exists: use `secstore update`.

        Examples:
          secstore add --service api.example.com --account alice
          printf %s "$TOKEN" | secstore add --service api --account ci --value-stdin
          secstore add --server example.com --protocol https --account alice
          secstore add --service sync --account daemon --value-file token.txt \\
              --accessibility afterFirstUnlock
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var item: ItemOptions
    @OptionGroup var details: ItemDetailOptions
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
        var attributes = item.attributes
        attributes.accessGroup = try DefaultGroup.forNewItem(explicit: item.group)
        details.apply(to: &attributes)
        if !secret.isGiven || secret.prompt {
            try session.unlockBeforeAskingForASecret(of: attributes.accessibility ?? .whenUnlocked)
        }
        let newItem = Item(itemClass: itemClass, attributes: attributes, data: try secret.read())
        let added = try session.unlockingIfNeeded {
            try session.store.add(newItem, returning: [.attributes, .persistentReference])
        }
        if output.json {
            JSONOutput.print(ItemRendering.json(added, includeSecret: false))
        } else {
            Console.line("Added \(itemClass.rawValue) item (\(describe(added))) to group \(added.attributes.accessGroup ?? "").")
        }
    }

    private func describe(_ item: Item) -> String {
        let name = item.itemClass == .genericPassword ? "service" : "server"
        return "\(name) \"\(Table.sanitize(ItemRendering.name(item)))\", account \"\(Table.sanitize(item.attributes.account ?? ""))\""
    }
}
