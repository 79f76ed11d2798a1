import ArgumentParser
import SecStore

/// `secstore update`: a new secret and/or new attributes for one item (or all matches).
struct UpdateCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change an item's secret or attributes.",
        discussion: """
        The item options (--service, --account, …) choose the items; --new-… options give new \
        attribute values. The secret changes when --value-stdin, --value-file, --value or \
        --prompt is given; with no --new-… option and no secret source, the new secret is asked \
        at the terminal. Changing several items needs --all.

        Examples:
          secstore update --service api --account alice      # asks for the new secret
          printf %s "$NEW" | secstore update --service api --account ci --value-stdin
          secstore update --service api --account alice --new-label "Production API"
          secstore update --service old.example.com --all --new-service example.com
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var item: ItemOptions

    @Option(name: .customLong("new-account"), help: ArgumentHelp("A new account.", valueName: "account"))
    var newAccount: String?
    @Option(name: .customLong("new-service"), help: ArgumentHelp("A new service (generic passwords).", valueName: "service"))
    var newService: String?
    @Option(name: .customLong("new-server"), help: ArgumentHelp("A new server (internet passwords).", valueName: "host"))
    var newServer: String?
    @Option(name: .customLong("new-group"), help: ArgumentHelp("Move the items to another access group.", valueName: "group"))
    var newGroup: String?
    @Option(name: .customLong("new-label"), help: ArgumentHelp("A new label.", valueName: "label"))
    var newLabel: String?
    @Option(name: .customLong("new-accessibility"), help: ArgumentHelp("A new accessibility.", valueName: "class"))
    var newAccessibility: Accessibility?
    @Option(name: .customLong("new-comment"), help: ArgumentHelp("A new comment.", valueName: "text"))
    var newComment: String?
    @Option(name: .customLong("new-description"), help: ArgumentHelp("A new description.", valueName: "text"))
    var newDescription: String?

    @Flag(name: .customLong("all"), help: "Change every matching item (required when more than one matches).")
    var all = false
    @OptionGroup var secret: SecretInputOptions
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
        if secret.stdin && passphrase.stdin {
            throw ValidationError("--value-stdin and --passphrase-stdin cannot share standard input. Use --passphrase-file or --passphrase-env.")
        }
        if newGroup == "" { throw ValidationError("--new-group cannot be empty.") }
    }

    private var attributeChanges: Attributes {
        var changes = Attributes()
        changes.account = newAccount
        changes.service = newService
        changes.server = newServer
        changes.accessGroup = newGroup
        changes.label = newLabel
        changes.accessibility = newAccessibility
        changes.comment = newComment
        changes.itemDescription = newDescription
        return changes
    }

    func run() throws {
        if let newGroup { try DefaultGroup.checkUserWritable(newGroup, named: "--new-group") }
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        var changes = ItemChanges(attributes: attributeChanges)
        if secret.isGiven || changes.attributes.isEmpty {
            if !secret.isGiven && !Terminal.canPrompt {
                throw CLIError.usage("Nothing to change. Give a new secret (--value-stdin, --value-file) or a --new-… option.")
            }
            if !secret.isGiven || secret.prompt {
                try session.unlockBeforeAskingForASecret(of: .whenUnlocked)
            }
            changes.data = try secret.read()
        }
        let itemClass = item.resolvedClass() ?? .genericPassword
        let query = item.query(for: itemClass, returning: [])
        let count = try session.unlockingIfNeeded {
            try session.store.write { transaction -> Int in
                try ItemSearch.requireMatches(of: query, in: transaction, options: item, all: all, verb: "change")
                return try transaction.update(matching: query, with: changes)
            }
        }
        if output.json {
            JSONOutput.print(["updated": .int(count)])
        } else {
            Console.report("Updated \(count) item\(count == 1 ? "" : "s").")
        }
    }
}
