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

    @Test("A wrong passphrase typed at the prompt is status 6")
    func wrongPassphraseAtPrompt() throws {
        let store = try CLIStore.created(passphrase: true)
        try store.add(service: "api", account: "alice", secret: "the-secret", "--passphrase-file", try store.passphraseFile())
        let terminal = try PseudoTerminalSession(arguments: ["get", "--service", "api", "--account", "alice"] + store.storeArguments,
                                                 home: store.directory)
        #expect(terminal.waitFor("Store passphrase: "))
        terminal.type("guessing-wrong\n")
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
