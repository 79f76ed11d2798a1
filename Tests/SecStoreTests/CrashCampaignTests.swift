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

    /// Applies `try <n> set:a=v delete:b …` lines to `state`.
    static func apply(_ line: Substring, to state: inout [String: String]) {
        for step in line.split(separator: " ").dropFirst(2) {
            if step.hasPrefix("set:"), let equals = step.firstIndex(of: "=") {
                state[String(step[step.index(step.startIndex, offsetBy: 4)..<equals])] = String(step[step.index(after: equals)...])
            } else if step.hasPrefix("delete:") {
                state[String(step.dropFirst(7))] = nil
            }
        }
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
            let lines = try writer.finish().lines
            // What the acknowledged operations made, and the same plus the one in flight (its
            // `try` line has no `ack`): the store must hold one of the two.
            var acknowledged: [String: String] = [:]
            var pending: Substring?
            var done = 0
            for line in lines {
                if line.hasPrefix("try ") {
                    pending = Substring(line)
                } else if line.hasPrefix("ack "), let attempted = pending {
                    Self.apply(attempted, to: &acknowledged)
                    pending = nil
                    done += 1
                }
            }
            var withInFlight = acknowledged
            if let pending { Self.apply(pending, to: &withInFlight) }
            acknowledgedTotal += done
            let store = try dir.openStore(access: .owner)
            let stored = try store.find(Query(service: "crash", limit: .all, returning: [.attributes, .data]))
            var actual: [String: String] = [:]
            for item in stored { actual[item.attributes.account ?? ""] = String(decoding: item.data ?? Data(), as: UTF8.self) }
            #expect(actual == acknowledged || actual == withInFlight,
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
        _ = try source.exportBackup(to: backup, passphrase: "pp", limits: .minimumForTesting)
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
