import Foundation
import Testing
@testable import SecStore

/// 8 processes × 300 mixed operations on one store at once: nothing lost or duplicated, no
/// "database is locked" reaching a caller, and the store ends exactly as the operations'
/// successful results imply.
@Suite struct ContentionTests {
    @Test func eightProcessesOfMixedOperations() throws {
        let dir = TemporaryDirectory()
        let entitlements = ["--app-id", "ABCDE12345.com.example.app", "--group", "ABCDE12345.com.example.app"]
        // Create the store first so every worker opens an existing file.
        _ = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        let gate = dir.url.appending(path: "go")
        let seed = UInt64.random(in: 1...UInt64.max / 2)
        let workers = try (0..<8).map { worker in
            try helper.start(["contend", "--store", dir.storeURL.path, "--device-key", dir.deviceKeyURL.path,
                                     "--worker", String(worker), "--operations", "300", "--seed", String(seed),
                                     "--start-after", gate.path] + entitlements)
        }
        #expect(FileManager.default.createFile(atPath: gate.path, contents: Data()))
        let outputs = try workers.map { try $0.finish() }

        var expected: [String: String] = [:]
        var claims: [String: [String]] = [:]
        var operations = 0
        for outcome in outputs {
            #expect(outcome.status == 0)
            for line in outcome.lines {
                let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
                switch fields.first {
                case "final" where fields[2] != "-": expected[fields[1]] = fields[2]
                case "claimed": claims[fields[1], default: []].append(fields[2])
                case "count": operations += Int(fields[2]) ?? 0
                case "final": break
                default: Issue.record("seed \(seed): \(line)")
                }
            }
        }
        #expect(operations == 8 * 300)
        #expect(claims.count == 8, "every shared account was claimed by someone")
        #expect(expected.count > 40, "the workload leaves many items behind")
        for (account, winners) in claims {
            #expect(winners.count == 1, "seed \(seed): \(account) claimed by \(winners)")
            expected[account] = winners.first
        }

        let owner = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        let stored = (try? owner.items(matching: Query(service: "contention", limit: .all, returning: [.attributes, .data]))) ?? []
        var actual: [String: String] = [:]
        for item in stored {
            let account = item.attributes.account ?? "?"
            #expect(actual[account] == nil, "duplicate item for \(account)")
            actual[account] = String(decoding: item.data ?? Data(), as: UTF8.self)
        }
        #expect(actual == expected, "seed \(seed)")
        #expect(try owner.verify().isIntact)
    }
}

/// A writer that never lets go: other processes wait for the busy timeout, then get a clear
/// `storeBusy` instead of hanging or seeing SQLite's "database is locked".
@Suite struct StuckLockTests {
    @Test func aStuckWriterEndsTheWaitWithStoreBusy() throws {
        let dir = TemporaryDirectory()
        let options = SecretStore.Options(access: .entitled(TestEntitlements.app), deviceKeyURL: dir.deviceKeyURL, busyTimeout: 0.5)
        let store = try SecretStore(at: dir.storeURL, options: options)
        try store.add(.genericPassword(service: "svc", account: "before", data: Data("v".utf8)))
        let holder = try helper.start(["hold-lock", "--store", dir.storeURL.path])
        defer { holder.kill() }
        #expect(holder.waitForLine("holding"))

        let started = Date()
        let error = try #require(throws: SecStoreError.self) {
            try store.add(.genericPassword(service: "svc", account: "during", data: Data("v".utf8)))
        }
        let waited = Date().timeIntervalSince(started)
        #expect(error.code == .storeBusy)
        #expect(error.message.contains("busy timeout"))
        // It says who holds the lock (from /proc/locks), where the kernel tells.
        if FileManager.default.fileExists(atPath: "/proc/locks") {
            #expect(error.message.contains("process ") && error.message.contains("secstore-test"), "\(error.message)")
        }
        #expect(waited >= 0.4 && waited < 10, "waited \(waited) s")
        // Readers are not blocked by the writer (WAL).
        #expect(try store.string(forAccount: "before", service: "svc") == "v")

        holder.kill()
        try store.add(.genericPassword(service: "svc", account: "after", data: Data("v".utf8)))
        #expect(try store.string(forAccount: "after", service: "svc") == "v")
    }
}
