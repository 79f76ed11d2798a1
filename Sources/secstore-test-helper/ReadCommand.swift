import Foundation
import SecStore

/// `read --service S --account A [--passphrase P]`: prints the secret as UTF-8.
enum ReadCommand {
    static func run(_ arguments: HelperArguments) throws {
        let store = try arguments.openStore()
        if let passphrase = arguments.optional("passphrase") {
            try store.unlock(passphrase: passphrase)
        }
        let query = Query(service: try arguments.required("service"), account: try arguments.required("account"), returning: .data)
        let item = try store.items(matching: query)[0]
        print(String(decoding: item.data ?? Data(), as: UTF8.self))
    }
}

/// `unlock --passphrase P`: unlocks, which publishes the AfterFirstUnlock keys, and exits.
enum UnlockCommand {
    static func run(_ arguments: HelperArguments) throws {
        let store = try arguments.openStore()
        try store.unlock(passphrase: try arguments.required("passphrase"))
        print("unlocked \(store.firstUnlockBackend)")
    }
}

/// `churn-passphrase --first A --second B`: changes the passphrase A→B→A→… until killed,
/// printing `now <passphrase>` after each committed change.
enum ChurnPassphraseCommand {
    static func run(_ arguments: HelperArguments) throws {
        let store = try arguments.openStore()
        var current = try arguments.required("first")
        var next = try arguments.required("second")
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
