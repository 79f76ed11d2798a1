import ArgumentParser
import Foundation
internal import GRDBSQLite
import SecStore
import Synchronization

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

    @Flag(help: "First call SecretStore.useAdaptiveSQLiteMutexes() and print `sqlite-mutexes-taken true|false`.")
    var useAdaptiveSqliteMutexes = false

    @Flag(help: "Then print `sqlite-mutexes adaptive|sqlite`: whose mutexes SQLite hands out.")
    var reportSqliteMutexes = false

    @Option(help: "Then read the item again this many times from each of --threads threads, while one more thread updates the item `<account>-churn` as often, and print `threaded-reads R right, updates U, churn V`: the reads that answered the item's secret, the updates that committed, and the churn item's secret read back afterwards.")
    var threadedReads = 0

    @Option(help: "Reading threads for --threaded-reads.")
    var threads = 4

    func run() throws {
        if useAdaptiveSqliteMutexes { print("sqlite-mutexes-taken \(SecretStore.useAdaptiveSQLiteMutexes())") }
        if disableSqliteMemoryStatistics { print("sqlite-setting-taken \(SecretStore.disableSQLiteMemoryStatistics())") }
        let store = try storeOptions.openStore()
        if let passphrase {
            try store.unlock(passphrase: passphrase)
        }
        let query = Query(service: service, account: account, returning: .data)
        let secret = try store.items(matching: query)[0].data ?? Data()
        print(String(decoding: secret, as: UTF8.self))
        if reportSqliteMemory { print("sqlite-memory-used \(sqlite3_memory_used())") }
        if reportSqliteMutexes { print("sqlite-mutexes \(SecretStore.sqliteMutexesAreAdaptive ? "adaptive" : "sqlite")") }
        if threadedReads > 0 {
            let outcome = try readInThreads(store, query, expecting: secret)
            print("threaded-reads \(outcome.rightReads) right, updates \(outcome.updates), churn \(outcome.churn)")
        }
    }

    /// Reads `query` `threadedReads` times from each of `threads` threads while one more
    /// thread commits as many updates of another item beside them. Counts what actually
    /// happened: the reads that answered `expected` and the updates that committed; then
    /// reads the updated item back.
    private func readInThreads(_ store: SecretStore, _ query: Query,
                               expecting expected: Data) throws -> (rightReads: Int, updates: Int, churn: String) {
        let churnAccount = account + "-churn"
        let churn = Query(service: service, account: churnAccount)
        try store.add(.genericPassword(service: service, account: churnAccount, data: Data("0".utf8)))
        let rightReads = Atomic<Int>(0)
        let updates = Atomic<Int>(0)
        let finished = DispatchSemaphore(value: 0)
        let (threads, rounds, service) = (self.threads, threadedReads, self.service)
        // Threads of their own, all at once (`concurrentPerform` would run only as many as
        // there are cores).
        for index in 0...threads {
            Thread {
                for round in 0..<rounds {
                    if index == threads {
                        let changes = ItemChanges(data: Data("\(service)-\(round)".utf8))
                        if (try? store.update(matching: churn, with: changes)) == 1 { updates.add(1, ordering: .relaxed) }
                    } else if (try? store.items(matching: query).first?.data) == expected {
                        rightReads.add(1, ordering: .relaxed)
                    }
                }
                finished.signal()
            }.start()
        }
        for _ in 0...threads { finished.wait() }
        let churnSecret = try store.items(matching: Query(service: service, account: churnAccount, returning: .data)).first?.data ?? Data()
        return (rightReads.load(ordering: .relaxed), updates.load(ordering: .relaxed), String(decoding: churnSecret, as: UTF8.self))
    }
}
