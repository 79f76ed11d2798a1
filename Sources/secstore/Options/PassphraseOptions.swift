import ArgumentParser

/// `--passphrase-stdin`, `--passphrase-file`, `--passphrase-env`: where the store's
/// passphrase comes from when it is not typed at the terminal prompt.
///
/// ```
/// secstore get --service api --account alice --passphrase-file ~/.config/secstore/pass
/// ```
struct PassphraseOptions: ParsableArguments {
    @Flag(name: .customLong("passphrase-stdin"), help: "Read the store passphrase from the first line of standard input.")
    var stdin = false

    @Option(name: .customLong("passphrase-file"), help: ArgumentHelp(
        "Read the store passphrase from the first line of a file.", valueName: "path"), completion: .file())
    var file: String?

    @Option(name: .customLong("passphrase-env"), help: ArgumentHelp(
        "Read the store passphrase from this environment variable (an explicit opt-in).", valueName: "name"))
    var environment: String?

    func validate() throws {
        try PassphraseSource.validate(stdin: stdin, file: file, environment: environment, prefix: "--passphrase")
    }

    /// The source the user named, or `nil` to prompt.
    var source: PassphraseSource? { PassphraseSource(stdin: stdin, file: file, environment: environment) }
}

/// `--new-passphrase-stdin`, `--new-passphrase-file`, `--new-passphrase-env`: the new
/// passphrase of `secstore passphrase change`.
struct NewPassphraseOptions: ParsableArguments {
    @Flag(name: .customLong("new-passphrase-stdin"), help: "Read the new passphrase from the next line of standard input.")
    var stdin = false

    @Option(name: .customLong("new-passphrase-file"), help: ArgumentHelp(
        "Read the new passphrase from the first line of a file.", valueName: "path"), completion: .file())
    var file: String?

    @Option(name: .customLong("new-passphrase-env"), help: ArgumentHelp(
        "Read the new passphrase from this environment variable (an explicit opt-in).", valueName: "name"))
    var environment: String?

    func validate() throws {
        try PassphraseSource.validate(stdin: stdin, file: file, environment: environment, prefix: "--new-passphrase")
    }

    var source: PassphraseSource? { PassphraseSource(stdin: stdin, file: file, environment: environment) }
}

/// `--backup-passphrase-stdin`, `--backup-passphrase-file`, `--backup-passphrase-env`:
/// the passphrase that encrypts a backup (`export`) or opens one (`import`).
struct BackupPassphraseOptions: ParsableArguments {
    @Flag(name: .customLong("backup-passphrase-stdin"), help: "Read the backup passphrase from the next line of standard input.")
    var stdin = false

    @Option(name: .customLong("backup-passphrase-file"), help: ArgumentHelp(
        "Read the backup passphrase from the first line of a file.", valueName: "path"), completion: .file())
    var file: String?

    @Option(name: .customLong("backup-passphrase-env"), help: ArgumentHelp(
        "Read the backup passphrase from this environment variable (an explicit opt-in).", valueName: "name"))
    var environment: String?

    func validate() throws {
        try PassphraseSource.validate(stdin: stdin, file: file, environment: environment, prefix: "--backup-passphrase")
    }

    var source: PassphraseSource? { PassphraseSource(stdin: stdin, file: file, environment: environment) }
}
