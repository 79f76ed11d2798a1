import Foundation
import Testing

/// The interactive side, driven through a pseudo-terminal: the tool runs with the terminal
/// as its controlling terminal, standard input, output and error, and the test types.
@Suite("secstore at a terminal")
struct TerminalPromptTests {
    @Test("The passphrase prompt does not echo what is typed")
    func passphrasePromptHasNoEcho() throws {
        let store = try CLIStore.created(passphrase: true)
        try store.add(service: "api", account: "alice", secret: "the-secret", "--passphrase-file", try store.passphraseFile())

        let terminal = try PseudoTerminalSession(arguments: ["get", "--service", "api", "--account", "alice"] + store.storeArguments,
                                                 home: store.directory)
        #expect(terminal.waitFor("Store passphrase: "), "no prompt; terminal shows: \(terminal.text)")
        terminal.type(CLIStore.passphrase + "\n")
        let status = terminal.finish()
        #expect(status == Exit.success, "terminal shows: \(terminal.text)")
        #expect(terminal.contains("the-secret"))
        #expect(!terminal.contains(CLIStore.passphrase), "the typed passphrase was echoed: \(terminal.text)")
        #expect(!terminal.contains("horse"))
    }

    @Test("A wrong passphrase typed at the prompt three times is status 6")
    func wrongPassphraseAtPrompt() throws {
        let store = try CLIStore.created(passphrase: true)
        try store.add(service: "api", account: "alice", secret: "the-secret", "--passphrase-file", try store.passphraseFile())
        let terminal = try PseudoTerminalSession(arguments: ["get", "--service", "api", "--account", "alice"] + store.storeArguments,
                                                 home: store.directory)
        for attempt in 1...3 {
            #expect(terminal.waitFor("Store passphrase: ", count: attempt), "\(terminal.text)")
            terminal.type("guessing-wrong\n")
        }
        #expect(terminal.finish() == Exit.authenticationFailed, "\(terminal.text)")
        #expect(!terminal.contains("guessing-wrong"))
        #expect(!terminal.contains("the-secret"))
    }

    @Test("add asks for the secret twice without echo, and stores what was typed")
    func secretPrompt() throws {
        let store = try CLIStore.created()
        let terminal = try PseudoTerminalSession(arguments: ["add", "--service", "api", "--account", "alice"] + store.storeArguments,
                                                 home: store.directory)
        #expect(terminal.waitFor("Secret: "), "\(terminal.text)")
        terminal.type("typed-secret\n")
        #expect(terminal.waitFor("Repeat the secret: "), "\(terminal.text)")
        terminal.type("typed-secret\n")
        #expect(terminal.finish() == Exit.success, "\(terminal.text)")
        #expect(!terminal.contains("typed-secret"), "the typed secret was echoed: \(terminal.text)")
        #expect(try store.run("get", "--service", "api", "--account", "alice").stdout == "typed-secret")
    }

    @Test("Mismatched entries add nothing")
    func mismatchedSecret() throws {
        let store = try CLIStore.created()
        let terminal = try PseudoTerminalSession(arguments: ["add", "--service", "api", "--account", "alice"] + store.storeArguments,
                                                 home: store.directory)
        #expect(terminal.waitFor("Secret: "))
        terminal.type("one\n")
        #expect(terminal.waitFor("Repeat the secret: "))
        terminal.type("two\n")
        #expect(terminal.finish() == Exit.usage, "\(terminal.text)")
        #expect(terminal.contains("differ"))
        #expect(try store.run("list", "--json").jsonArray().isEmpty)
    }

    @Test("A progress bar is drawn on a terminal's stderr, and get adds a newline for the terminal")
    func progressBarOnTerminal() throws {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "no-newline")
        let verify = try PseudoTerminalSession(arguments: ["verify"] + store.storeArguments, home: store.directory)
        #expect(verify.finish() == Exit.success)
        #expect(verify.contains("Verifying ["), "\(verify.text)")
        #expect(verify.contains("Verified 1 item: no damage found."))

        let get = try PseudoTerminalSession(arguments: ["get", "--service", "api", "--account", "alice"] + store.storeArguments,
                                            home: store.directory)
        #expect(get.finish() == Exit.success)
        #expect(get.text.hasSuffix("no-newline\r\n"), "\(get.text.debugDescription)")
    }
}

/// `delete --all` at a terminal asks first; scripts (no terminal) and `--yes` do not.
@Suite("delete --all confirmation") struct DeleteConfirmationTests {
    func storeWithItemsOfBothClasses() throws -> CLIStore {
        let store = try CLIStore.created()
        try store.add(service: "api", account: "alice", secret: "a")
        try store.add(service: "api", account: "bob", secret: "b")
        let web = try store.run("add", "--server", "example.com", "--account", "carol", "--value-stdin", stdin: "c")
        try #require(web.status == Exit.success, "\(web)")
        return store
    }

    @Test("Answering no at the terminal deletes nothing; yes deletes every match of both classes")
    func asksAtTheTerminal() throws {
        let store = try storeWithItemsOfBothClasses()
        let declined = try PseudoTerminalSession(arguments: ["delete", "--all"] + store.storeArguments, home: store.directory)
        #expect(declined.waitFor("Delete 3 items? [y/N] "), "\(declined.text)")
        declined.type("n\n")
        #expect(declined.finish() == Exit.failure, "\(declined.text)")
        #expect(try store.run("list", "--json").jsonArray().count == 3)

        let accepted = try PseudoTerminalSession(arguments: ["delete", "--all"] + store.storeArguments, home: store.directory)
        #expect(accepted.waitFor("Delete 3 items? [y/N] "), "\(accepted.text)")
        accepted.type("y\n")
        #expect(accepted.finish() == Exit.success, "\(accepted.text)")
        #expect(try store.run("list", "--json").status == Exit.success)
        #expect(try store.run("list", "--json").jsonArray().isEmpty)
    }

    @Test("Without a terminal, or with --yes, delete --all does not ask")
    func scriptsAreNotAsked() throws {
        let store = try storeWithItemsOfBothClasses()
        let scripted = try store.run("delete", "--all", "--json")
        #expect(scripted.status == Exit.success, "\(scripted)")
        #expect(try scripted.jsonObject()["deleted"] as? Int == 3)
        let again = try storeWithItemsOfBothClasses()
        let terminal = try PseudoTerminalSession(arguments: ["delete", "--all", "--yes"] + again.storeArguments, home: again.directory)
        #expect(terminal.finish() == Exit.success, "\(terminal.text)")
        #expect(try again.run("list", "--json").jsonArray().isEmpty)
    }
}

/// The order of the questions, and second chances, at a terminal.
@Suite("Prompt order and tries") struct PromptOrderTests {
    @Test("add on a locked store asks the store passphrase before the new secret")
    func passphraseBeforeSecret() throws {
        let store = try CLIStore.created(passphrase: true)
        let terminal = try PseudoTerminalSession(arguments: ["add", "--service", "api", "--account", "alice"] + store.storeArguments,
                                                 home: store.directory)
        #expect(terminal.waitFor("Store passphrase: "), "\(terminal.text)")
        #expect(!terminal.contains("Secret: "), "the secret was asked first: \(terminal.text)")
        terminal.type(CLIStore.passphrase + "\n")
        #expect(terminal.waitFor("Secret: "), "\(terminal.text)")
        terminal.type("typed\n")
        #expect(terminal.waitFor("Repeat the secret: "), "\(terminal.text)")
        terminal.type("typed\n")
        #expect(terminal.finish() == Exit.success, "\(terminal.text)")
    }

    @Test("A mistyped passphrase at the terminal gets two more tries; the third failure is status 6")
    func threeTries() throws {
        let store = try CLIStore.created(passphrase: true)
        try store.add(service: "api", account: "alice", secret: "the-secret", "--passphrase-file", try store.passphraseFile())
        let second = try PseudoTerminalSession(arguments: ["get", "--service", "api", "--account", "alice"] + store.storeArguments,
                                               home: store.directory)
        #expect(second.waitFor("Store passphrase: "))
        second.type("wrong\n")
        #expect(second.waitFor("Sorry, try again."), "\(second.text)")
        #expect(second.waitFor("Store passphrase: ", count: 2), "\(second.text)")
        second.type(CLIStore.passphrase + "\n")
        #expect(second.finish() == Exit.success, "\(second.text)")
        #expect(second.contains("the-secret"))

        let never = try PseudoTerminalSession(arguments: ["get", "--service", "api", "--account", "alice"] + store.storeArguments,
                                              home: store.directory)
        for attempt in 1...3 {
            #expect(never.waitFor("Store passphrase: ", count: attempt), "\(never.text)")
            never.type("wrong\n")
        }
        #expect(never.finish() == Exit.authenticationFailed, "\(never.text)")
    }
}
