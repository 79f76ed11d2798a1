import ArgumentParser
import Foundation
internal import GRDBSQLite
import SecStore

/// `read --service S --account A [--passphrase P]`: prints the secret as UTF-8. Without a
/// passphrase it shows what another process may read after (or before) an unlock.
struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Print one generic password's secret as UTF-8, unlocking first if given a passphrase.")

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "The item's service.")
    var service: String

    @Option(help: "The item's account.")
    var account: String

    // `.unconditional`: a passphrase is test data and may start with "-".
    @Option(parsing: .unconditional, help: "Unlock with this passphrase before reading.")
    var passphrase: String?

    @Flag(help: "First call SecretStore.disableSQLiteMemoryStatistics() and print `sqlite-setting-taken true|false`.")
    var disableSqliteMemoryStatistics = false

    @Flag(help: "Then print `sqlite-memory-used N`: SQLite's count of the memory it holds, 0 when its statistics are off.")
    var reportSqliteMemory = false

    func run() throws {
        if disableSqliteMemoryStatistics { print("sqlite-setting-taken \(SecretStore.disableSQLiteMemoryStatistics())") }
        let store = try storeOptions.openStore()
        if let passphrase {
            try store.unlock(passphrase: passphrase)
        }
        let item = try store.items(matching: Query(service: service, account: account, returning: .data))[0]
        print(String(decoding: item.data ?? Data(), as: UTF8.self))
        if reportSqliteMemory { print("sqlite-memory-used \(sqlite3_memory_used())") }
    }
}
