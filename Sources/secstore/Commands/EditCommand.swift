import ArgumentParser
import Foundation
import SecStore

/// `secstore edit`: changes one item's secret in `$VISUAL` / `$EDITOR`, through a private
/// file that is wiped and removed afterwards.
struct EditCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Edit one item's secret in $VISUAL or $EDITOR.",
        discussion: """
        The secret is written to a private file (mode 0600, in a new mode-0700 directory under \
        $XDG_RUNTIME_DIR, else /dev/shm, else the temporary directory), the editor ($VISUAL, \
        else $EDITOR, else vi; run by /bin/sh, so it may carry arguments) opens it, and what \
        it saved becomes the secret. The file and anything else the editor left in that \
        directory are overwritten with zeros and removed afterwards, also on Ctrl-C, SIGTERM \
        or SIGHUP. The editor does not inherit the variable named by --passphrase-env. A \
        newline the editor added at the end is dropped when the secret had none. \
        Nothing changes when the editor fails, the text is unchanged, it is empty (unless \
        --allow-empty), the file is no longer a regular file (a FIFO, a link), or another \
        process changed the item meanwhile. A secstore killed by SIGKILL cannot clean up: \
        see docs/cli.md for where a secstore-edit-* directory can be left.

        Examples:
          secstore edit -s api.example.com -a alice
          EDITOR=nano secstore edit --ref 67656e7080599e4e51272fa6277b626155402458
          EDITOR='code --wait' secstore edit -s notes -a recovery-codes
        """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var item: ItemOptions
    @Flag(name: .customLong("allow-empty"), help: "Accept an empty secret (otherwise an empty file changes nothing).")
    var allowEmpty = false
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let session = try StoreSession(store: storeOptions, passphrase: passphrase)
        var (found, original) = try session.unlockingIfNeeded { () throws -> (Item, Data) in
            let matches = try ItemSearch.find(item, in: session.store, classes: ItemSearch.classes(item, default: .genericPassword),
                                              returning: [.attributes, .persistentReference])
            guard let match = matches.first else { throw ItemSearch.notFound(item) }
            guard matches.count == 1 else {
                throw ItemSearch.ambiguous(matches.count, item, fix: "Narrow the query (--group, --account, …) or name one with --ref; `secstore list --refs` shows them.")
            }
            let data = try session.store.items(matching: Query(persistentReference: match.persistentReference!, returning: .data))[0].data ?? Data()
            return (match, data)
        }
        defer { original.resetBytes(in: 0..<original.count) }
        let scratch = try PrivateScratch(contents: original)
        defer { scratch.wipeAndRemove() }

        let editor = Self.editorCommand()
        let ended = try InterruptCleanup.whileChildRuns {
            try ProcessLauncher.runAndWait(["/bin/sh", "-c", editor + " \"$@\"", editor, scratch.filePath],
                                           environment: ChildEnvironment(passphrase: passphrase))
        }
        switch ended {
        case .exited(0):
            break
        case .exited(let status):
            throw CLIError(.failure, "The editor (\(editor)) exited with status \(status). Nothing was changed.", name: "editorFailed")
        case .signaled(let signalNumber):
            throw CLIError(.failure, "The editor (\(editor)) was ended by signal \(signalNumber). Nothing was changed.", name: "editorFailed")
        }
        var edited = try scratch.read(limit: Item.maximumDataByteCount)
        defer { edited.resetBytes(in: 0..<edited.count) }
        scratch.wipeAndRemove()
        if original.last != UInt8(ascii: "\n"), edited.last == UInt8(ascii: "\n") {
            edited.removeLast()
            if original.last != UInt8(ascii: "\r"), edited.last == UInt8(ascii: "\r") { edited.removeLast() }
        }
        if edited == original {
            return report(updated: 0, "No change: the secret is as it was.")
        }
        if edited.isEmpty && !allowEmpty {
            throw CLIError(.failure, "The edited secret is empty. Nothing was changed (pass --allow-empty if an empty secret is what you mean).", name: "emptySecret")
        }
        let reference = found.persistentReference!
        let modified = found.attributes.modificationDate
        try session.unlockingIfNeeded {
            try session.store.write { transaction in
                // Another process may have changed the item while the editor ran: its change
                // is not overwritten.
                let now = try transaction.find(Query(persistentReference: reference, returning: .attributes))
                guard let current = now.first else {
                    throw CLIError(.notFound, "The item was deleted while you edited it. Nothing was saved.", name: SecStoreError.Code.itemNotFound.name)
                }
                guard current.attributes.modificationDate == modified else {
                    throw CLIError(.failure, "Another process changed the item while you edited it. Nothing was saved; run `secstore edit` again.", name: "editConflict")
                }
                try transaction.update(matching: Query(persistentReference: reference), with: ItemChanges(data: edited))
            }
        }
        found.data = nil
        report(updated: 1, "Updated the secret of \(found.itemClass.rawValue) item (\(AddCommand.describe(found))).")
    }

    private func report(updated: Int, _ message: String) {
        if output.json {
            JSONOutput.print(["updated": .int(updated)])
        } else {
            Console.report(message)
        }
    }

    /// `$VISUAL`, else `$EDITOR`, else `vi`: a shell command, as git reads them.
    static func editorCommand(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name], !value.trimmingWhitespace().isEmpty { return value }
        }
        return "vi"
    }
}
