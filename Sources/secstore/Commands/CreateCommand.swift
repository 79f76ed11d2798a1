import ArgumentParser
import Foundation
import SecStore

/// `secstore create`: makes a new store (and the device key, when there is none).
struct CreateCommand: ParsableCommand, ReportsJSON {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a new store, optionally protected by a passphrase.",
        discussion: """
        Creates the store file (mode 0600, in a 0700 directory) and, when it does not exist, the \
        device key. Fails if the store already exists.

        Examples:
          secstore create
          secstore create --passphrase                  # asks for a passphrase twice
          secstore --store ~/work.secstore create --passphrase-file ~/.secstore-pass
        """)

    @OptionGroup var storeOptions: StoreOptions
    @Flag(name: .customLong("passphrase"), help: "Protect the new store with a passphrase, asked at the terminal.")
    var withPassphrase = false
    @OptionGroup var passphrase: PassphraseOptions
    @OptionGroup var kdf: KDFOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let url = storeOptions.storeURL
        if FileManager.default.fileExists(atPath: url.path) {
            throw CLIError(.duplicate, "A store already exists at \(url.path). Use it as is, or choose another path with --store.",
                           name: "storeExists")
        }
        let wantsPassphrase = withPassphrase || passphrase.source != nil
        // Read the passphrase before creating anything, so a mistyped confirmation leaves no store behind.
        let secret = wantsPassphrase
            ? try Prompter.passphrase(from: passphrase.source, what: "new store passphrase", confirm: true,
                                      unavailable: Prompter.noTerminal(what: "passphrase", flagPrefix: "--passphrase"))
            : nil
        // Built whole under a temporary name and linked into place: a failure (Argon2id out of
        // memory, Ctrl-C) leaves no half-made store behind.
        let store: SecretStore
        do {
            store = try SecretStore.create(at: url, options: storeOptions.options(creating: true), passphrase: secret,
                                           limits: kdf.limits)
        } catch let error as SecStoreError where error.code == .duplicateItem {
            throw CLIError(.duplicate, "A store already exists at \(url.path). Use it as is, or choose another path with --store.",
                           name: "storeExists")
        }

        if output.json {
            JSONOutput.print([
                "store": .string(url.path), "deviceKey": .string(storeOptions.deviceKeyURL.path),
                "storeID": .string(store.storeID.uuidString), "passphrase": .bool(secret != nil),
            ])
        } else {
            Console.report("Created store \(url.path)\(secret != nil ? " with a passphrase" : "").")
            Console.report("Device key: \(storeOptions.deviceKeyURL.path) (keep it; the store cannot be opened without it).")
        }
    }
}
