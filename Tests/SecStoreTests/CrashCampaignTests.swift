import Foundation
import Testing
@testable import SecStore

/// The kill -9 campaign: a writer acknowledging each committed operation is killed at a
/// random moment, and the store must hold every acknowledged operation, nothing half-applied
/// (each operation is one transaction), and verify intact. The suite runs a few trials;
/// `scripts/crash-campaign.sh` runs hundreds (`SECSTORE_CRASH_TRIALS`).
@Suite struct CrashCampaignTests {
    static var trials: Int {
        ProcessInfo.processInfo.environment["SECSTORE_CRASH_TRIALS"].flatMap(Int.init) ?? 8
    }

    /// The accounts and their values after operations 0..<count of the writer's sequence.
    static func state(after count: Int) -> [String: String] {
        var state: [String: String] = [:]
        for n in 0..<count {
            for step in AckWriterSteps.plan(n) {
                switch step {
                case .add(let account, let value), .update(let account, let value): state[account] = value
                case .delete(let account): state[account] = nil
                }
            }
        }
        return state
    }

    @Test func killedWritersLoseNoAcknowledgedOperation() throws {
        let dir = TemporaryDirectory()
        _ = try dir.openStore()   // create it first: the campaign is about writes
        var acknowledgedTotal = 0
        for trial in 0..<Self.trials {
            let writer = try helper.start(["ack-writer", "--store", dir.storeURL.path, "--device-key", dir.deviceKeyURL.path,
                                           "--app-id", "ABCDE12345.com.example.app", "--group", TestEntitlements.g1])
            Thread.sleep(forTimeInterval: Double.random(in: 0.05...0.25))
            writer.kill()
            let acknowledged = try writer.finish().lines.compactMap { $0.hasPrefix("ack ") ? Int($0.dropFirst(4)) : nil }
            // Each trial starts the sequence again on the same store: earlier trials' items are
            // there too, so compare the accounts this trial's sequence touches.
            let done = (acknowledged.last ?? -1) + 1
            acknowledgedTotal += done
            let store = try dir.openStore(access: .owner)
            let stored = try store.find(Query(service: "crash", limit: .all, returning: [.attributes, .data]))
            var actual: [String: String] = [:]
            for item in stored { actual[item.attributes.account ?? ""] = String(decoding: item.data ?? Data(), as: UTF8.self) }
            // Acknowledged: `done` operations. The one in flight may have committed too.
            let candidates = [Self.state(after: done), Self.state(after: done + 1)]
            #expect(candidates.contains { expected in expected.allSatisfy { actual[$0.key] == $0.value } },
                    "trial \(trial): \(done) acknowledged, store holds \(actual.count) items")
            #expect(try store.verify().isIntact, "trial \(trial)")
            // Reset for the next trial: the sequence adds a0 again.
            _ = try store.deleteAll(matching: Query(service: "crash"))
        }
        #expect(acknowledgedTotal > 0, "the writer never acknowledged anything: the trials tested nothing")
    }

    /// `secstore import` killed at random moments: the backup's items are all there or none
    /// (one transaction), and the store verifies.
    @Test func killedImportsAreAllOrNothing() throws {
        let dir = TemporaryDirectory()
        let source = try SecretStore(at: dir.url.appending(path: "source.secstore"),
                                     options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
        let itemCount = 400
        try source.write { transaction in
            for index in 0..<itemCount {
                try transaction.add(.genericPassword(service: "imported", account: "a\(index)", data: Data("v\(index)".utf8), accessGroup: "G"))
            }
        }
        let backup = dir.url.appending(path: "backup.ssb")
        try source.exportBackup(to: backup, passphrase: "pp", limits: .minimumForTesting)
        let tool = HelperProcess(product: "secstore")
        var outcomes: Set<Int> = []
        for trial in 0..<max(2, Self.trials / 4) {
            let store = dir.url.appending(path: "target-\(trial).secstore")
            _ = try SecretStore(at: store, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
            let running = try tool.start(["import", backup.path, "--backup-passphrase-env", "BACKUP_PASS",
                                          "--store", store.path, "--device-key", dir.deviceKeyURL.path],
                                         environment: ["BACKUP_PASS": "pp", "SECSTORE_KEYRING": "off"])
            Thread.sleep(forTimeInterval: Double.random(in: 0.0...0.15))
            running.kill()
            let target = try SecretStore(at: store, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL))
            let count = try target.find(Query(service: "imported", limit: .all)).count
            #expect(count == 0 || count == itemCount, "trial \(trial): \(count) of \(itemCount) items after a killed import")
            #expect(try target.verify().isIntact)
            outcomes.insert(count)
        }
    }
}

/// The writer's sequence, mirrored from `secstore-test-helper ack-writer` (AckWriterCommand.plan).
enum AckWriterSteps {
    enum Step {
        case add(account: String, value: String)
        case update(account: String, value: String)
        case delete(account: String)
    }

    static func plan(_ n: Int) -> [Step] {
        var steps: [Step] = [.add(account: "a\(n)", value: "v\(n)")]
        if n >= 1 && n % 3 == 0 { steps.append(.update(account: "a\(n - 1)", value: "u\(n)")) }
        if n >= 2 && n % 5 == 0 { steps.append(.delete(account: "a\(n - 2)")) }
        return steps
    }
}
