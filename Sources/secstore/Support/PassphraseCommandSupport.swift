import SecStore

/// Reports a successful `passphrase set` or `change` as text or JSON (`{"lockState": …}`).
func reportPassphraseChange(_ output: OutputOptions, _ message: String) {
    if output.json {
        JSONOutput.print(["lockState": .string(LockState.unlocked.rawValue)])
    } else {
        Console.line(message)
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
