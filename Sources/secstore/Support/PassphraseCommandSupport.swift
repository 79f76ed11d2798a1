import SecStore

/// Reports a successful `passphrase set` or `change` as text or JSON (`{"lockState": …}`).
func reportPassphraseChange(_ output: OutputOptions, _ message: String) {
    if output.json {
        JSONOutput.print(["lockState": .string(LockState.unlocked.rawValue)])
    } else {
        Console.report(message)
    }
}

/// Runs `body`, turning a wrong current passphrase into a message that says so.
func withPassphraseCheck<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as SecStoreError where error.code == .authenticationFailed {
        throw CLIError(.authenticationFailed, "The current store passphrase is not correct. Nothing was changed; check it and try again.",
                       name: error.code.name)
    }
}

/// Opens the store for `passphrase change` / `remove`: it must have a passphrase, and the
/// current one comes from the passphrase options or the prompt.
///
/// ```swift
/// let (store, current) = try openWithCurrentPassphrase(storeOptions, passphrase, action: "remove")
/// ```
func openWithCurrentPassphrase(_ storeOptions: StoreOptions, _ passphrase: PassphraseOptions,
                               action: String) throws -> (SecretStore, String) {
    let store = try storeOptions.open()
    guard try store.lockState != .noPassphrase else {
        throw CLIError.usage("The store has no passphrase to \(action). Set one with `secstore passphrase set`.")
    }
    // The current passphrase is checked before the new one is asked for; at a terminal, three tries.
    var triesLeft = passphrase.source == nil && Terminal.canPrompt ? 3 : 1
    while true {
        triesLeft -= 1
        let current = try Prompter.passphrase(from: passphrase.source, what: "current store passphrase", confirm: false,
                                              unavailable: Prompter.noTerminal(what: "current passphrase", flagPrefix: "--passphrase"))
        do {
            try withPassphraseCheck { try store.unlock(passphrase: current) }
            return (store, current)
        } catch let error as CLIError where error.status == .authenticationFailed && triesLeft > 0 {
            Console.prompt("Sorry, try again.")
        }
    }
}
