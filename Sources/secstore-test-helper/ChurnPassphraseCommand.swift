import ArgumentParser
import Foundation
import SecStore

/// `churn-passphrase --first A --second B`: changes the passphrase A→B→A→… until killed,
/// printing `ready` once and then `now <passphrase>` after each committed change, so a test
/// can kill it in the middle of a change and check exactly one passphrase still works.
struct ChurnPassphraseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "churn-passphrase",
        abstract: "Change the passphrase back and forth between two values until killed.")

    @OptionGroup var storeOptions: StoreOptions

    // `.unconditional`: passphrases are test data and may start with "-".
    @Option(parsing: .unconditional, help: "The current passphrase.")
    var first: String

    @Option(parsing: .unconditional, help: "The passphrase to change to, and back from.")
    var second: String

    func run() throws {
        let store = try storeOptions.openStore()
        var current = first
        var next = second
        let limits = PasswordHashingLimits.minimumForTesting
        print("ready")
        fflush(nil)
        while true {
            try store.changePassphrase(from: current, to: next, limits: limits)
            swap(&current, &next)
            print("now \(current)")
            fflush(nil)
        }
    }
}
