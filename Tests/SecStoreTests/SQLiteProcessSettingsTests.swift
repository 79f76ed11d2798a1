import Foundation
import Testing
@testable import SecStore

/// SQLite's process-wide settings (`SecretStore.disableSQLiteMemoryStatistics`,
/// `SecretStore.useAdaptiveSQLiteMutexes`), seen from real processes: SecStore leaves SQLite's
/// settings alone unless the program asks, and the calls work only before SQLite initializes.
@Suite struct SQLiteProcessSettingsTests {
    private func read(_ dir: TemporaryDirectory, _ extra: [String]) throws -> HelperProcess.Outcome {
        try helper.run(["read", "--store", dir.storeURL.path, "--device-key", dir.deviceKeyURL.path,
                        "--app-id", "ABCDE12345.com.example.app", "--group", TestEntitlements.g1,
                        "--service", "svc", "--account", "a", "--report-sqlite-memory"] + extra)
    }

    private func storeWithOneItem() throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        try dir.openStore().add(.genericPassword(service: "svc", account: "a", data: Data("s".utf8)))
        return dir
    }

    /// A program that opens a store without asking keeps SQLite's default: its memory is
    /// counted (the statistics are on), so whatever else in the process relies on them works.
    @Test func aStoreLeavesSQLiteMemoryStatisticsAlone() throws {
        let outcome = try read(try storeWithOneItem(), [])
        #expect(outcome.status == 0)
        #expect(outcome.lines.first == "s")
        let used = outcome.lines.last.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) }
        #expect((used ?? 0) > 0, "\(outcome.lines)")
    }

    /// Asked first thing, SQLite takes the setting: after an open and a read it has counted
    /// nothing (where it counted hundreds of kilobytes), so `sqlite3_malloc` took no
    /// process-wide mutex.
    @Test func askedFirstThingSQLiteStopsCounting() throws {
        let outcome = try read(try storeWithOneItem(), ["--disable-sqlite-memory-statistics"])
        #expect(outcome.status == 0)
        #expect(outcome.lines == ["sqlite-setting-taken true", "s", "sqlite-memory-used 0"])
    }

    /// Asked after SQLite has initialized (this test process has opened stores), SQLite
    /// refuses, and says so through the return value.
    @Test func askedTooLateNothingChanges() throws {
        _ = try storeWithOneItem()
        #expect(SecretStore.disableSQLiteMemoryStatistics() == false)
    }

    /// A program that opens a store without asking keeps SQLite's own mutexes.
    @Test func aStoreLeavesSQLiteMutexesAlone() throws {
        let outcome = try read(try storeWithOneItem(), ["--report-sqlite-mutexes"])
        #expect(outcome.status == 0)
        #expect(outcome.lines.first == "s")
        #expect(outcome.lines.last == "sqlite-mutexes sqlite", "\(outcome.lines)")
    }

    /// Asked first thing, SQLite takes the adaptive mutexes and hands them out; with them,
    /// four threads reading one item beside a thread committing updates all read it right,
    /// every update commits and the last one is what reads back (SQLite's locking of the
    /// log's shared index, its allocator and its connections all run on them); and both
    /// settings can be made together.
    @Test func askedFirstThingSQLiteUsesAdaptiveMutexes() throws {
        let outcome = try read(try storeWithOneItem(), ["--use-adaptive-sqlite-mutexes", "--disable-sqlite-memory-statistics",
                                                       "--report-sqlite-mutexes", "--threaded-reads", "300", "--threads", "4"])
        #expect(outcome.status == 0)
        #expect(outcome.lines == ["sqlite-mutexes-taken true", "sqlite-setting-taken true", "s", "sqlite-memory-used 0",
                                  "sqlite-mutexes adaptive", "threaded-reads 1200 right, updates 300, churn svc-299"],
                "\(outcome.lines)")
    }

    /// Asked after SQLite has initialized, SQLite refuses the mutexes too, and the store goes
    /// on with the ones it has.
    @Test func adaptiveMutexesAskedTooLateNothingChanges() throws {
        let dir = try storeWithOneItem()
        #expect(SecretStore.useAdaptiveSQLiteMutexes() == false)
        #expect(SecretStore.sqliteMutexesAreAdaptive == false)
        #expect(try dir.openStore().items(matching: Query(service: "svc", account: "a", returning: .data)).first?.data == Data("s".utf8))
    }
}
