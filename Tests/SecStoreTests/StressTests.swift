import Foundation
import SecStore
import Synchronization
import Testing

/// The concurrency stress test that ThreadSanitizer watches (`scripts/sanitizers.sh thread`;
/// issue 15): on one passphrase-protected store, threads read, write, delete, lock, unlock and
/// verify at once, while another process re-wraps the class keys over and over (a passphrase
/// change from the passphrase to itself) and short-lived processes unlock and read.
///
/// Checked: every read returns a whole value that was written (its secret matches its label);
/// the only failures are the expected ones (a locked class, an item deleted a moment ago); after
/// the run each item holds its writer's last value and `verify` finds the store intact.
///
/// Three seconds in the suite; `SECSTORE_STRESS_SECONDS` runs it longer.
@Suite struct StressTests {
    static let passphrase = "stress passphrase"
    static let service = "stress"
    static let accounts = (0..<8).flatMap { ["always-\($0)", "unlocked-\($0)"] }
    static var seconds: Double {
        ProcessInfo.processInfo.environment["SECSTORE_STRESS_SECONDS"].flatMap(Double.init) ?? 3
    }

    static func secret(_ account: String, _ version: String) -> Data { Data("\(account)|\(version)".utf8) }

    /// What the threads share: the versions written per account, the problems seen, and
    /// the number of operations of each kind that succeeded.
    final class Ledger: Sendable {
        let written = Mutex<[String: Set<String>]>([:])
        let issues = Mutex<[String]>([])
        let counts = Mutex<[String: Int]>([:])
        /// Each account's last value its writer committed (nil: deleted).
        let final = Mutex<[String: String?]>([:])

        func wrote(_ account: String, _ version: String) { written.withLock { _ = $0[account, default: []].insert(version) } }
        func wasWritten(_ account: String, _ version: String) -> Bool { written.withLock { $0[account]?.contains(version) ?? false } }
        func issue(_ text: String) { issues.withLock { $0.append(text) } }
        func count(_ kind: String) { counts.withLock { $0[kind, default: 0] += 1 } }
    }

    /// A read value is whole and was written.
    static func check(_ data: Data?, label: String?, account: String, ledger: Ledger, by reader: String) {
        guard let label, let data else {
            ledger.issue("\(reader): \(account) read without label or secret")
            return
        }
        if data != secret(account, label) { ledger.issue("\(reader): torn read of \(account): label \(label)") }
        if !ledger.wasWritten(account, label) { ledger.issue("\(reader): \(account) read as \(label), never written") }
    }

    /// Runs `body` on its own thread until `deadline`; returns a group to wait on.
    static func spawn(_ name: String, _ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        let thread = Thread {
            body()
            group.leave()
        }
        thread.name = name
        thread.start()
    }

    @Test func threadsAndProcessesOnOneLockingStore() throws {
        let dir = TemporaryDirectory()
        let store = try dir.openProcessLocalStore()
        try store.setPassphraseAsOwner(Self.passphrase, limits: .minimumForTesting)
        let ledger = Ledger()
        for account in Self.accounts {
            ledger.wrote(account, "v0")
            try store.add(.genericPassword(service: Self.service, account: account, data: Self.secret(account, "v0"),
                                           accessibility: account.hasPrefix("always") ? .always : .whenUnlocked, label: "v0"))
        }
        let deadline = Date(timeIntervalSinceNow: Self.seconds)
        let group = DispatchGroup()

        // Another process re-wraps the class keys (passphrase → itself) until killed.
        let churn = try helper.start([
            "churn-passphrase", "--store", dir.storeURL.path, "--device-key", dir.deviceKeyURL.path,
            "--owner", "yes",
            "--first", Self.passphrase, "--second", Self.passphrase, "--first-unlock-cache", "process",
        ])
        #expect(churn.waitForLine("ready"))
        // Its "now …" lines are read and dropped, so that it never waits on a full pipe.
        if let output = (churn.process.standardOutput as? Pipe)?.fileHandleForReading {
            Thread { while !output.availableData.isEmpty {} }.start()
        }

        // Writers: each owns half the accounts, so it knows whether each is there and its value.
        for writer in 0..<2 {
            Self.spawn("writer \(writer)", group) {
                let mine = Self.accounts.enumerated().filter { $0.offset % 2 == writer }.map(\.element)
                var last: [String: String?] = [:]
                var present = Set(mine)
                var step = 0
                while Date() < deadline {
                    step += 1
                    let account = mine[step % mine.count]
                    let version = "w\(writer)-\(step)"
                    ledger.wrote(account, version)
                    let query = Query(service: Self.service, account: account)
                    do {
                        if !present.contains(account) {
                            try store.add(.genericPassword(service: Self.service, account: account, data: Self.secret(account, version),
                                                           accessibility: account.hasPrefix("always") ? .always : .whenUnlocked,
                                                           label: version))
                            present.insert(account)
                            last[account] = .some(version)
                            ledger.count("add")
                        } else if step % 7 == 0 {
                            try store.delete(matching: query)
                            present.remove(account)
                            last[account] = .some(nil)
                            ledger.count("delete")
                        } else {
                            try store.update(matching: query, with: ItemChanges(attributes: [.label: .string(version)],
                                                                                data: Self.secret(account, version)))
                            last[account] = .some(version)
                            ledger.count("update")
                        }
                    } catch let error as SecStoreError where error.code == .interactionNotAllowed && account.hasPrefix("unlocked") {
                        ledger.count("locked")
                    } catch {
                        ledger.issue("writer \(writer): \(account) step \(step): \(error)")
                    }
                }
                ledger.final.withLock { $0.merge(last) { _, new in new } }
            }
        }

        // Readers.
        for reader in 0..<3 {
            Self.spawn("reader \(reader)", group) {
                var index = reader
                while Date() < deadline {
                    index += 5
                    let account = Self.accounts[index % Self.accounts.count]
                    do {
                        let items = try store.items(matching: Query(service: Self.service, account: account, returning: [.attributes, .data]))
                        Self.check(items.first?.data, label: items.first?.attributes.label, account: account, ledger: ledger,
                                   by: "reader \(reader)")
                        ledger.count("read")
                    } catch let error as SecStoreError where error.code == .itemNotFound
                                || (error.code == .interactionNotAllowed && account.hasPrefix("unlocked")) {
                        ledger.count(error.code.name)
                    } catch {
                        ledger.issue("reader \(reader): \(account): \(error)")
                    }
                }
            }
        }

        // A thread that locks and unlocks the handle.
        Self.spawn("locker", group) {
            while Date() < deadline {
                store.lock()
                usleep(UInt32.random(in: 0...2_000))
                do {
                    try store.unlock(passphrase: Self.passphrase)
                    ledger.count("unlock")
                } catch {
                    ledger.issue("locker: \(error)")
                }
                usleep(UInt32.random(in: 0...2_000))
            }
            do {
                try store.unlock(passphrase: Self.passphrase)
            } catch {
                ledger.issue("locker, last unlock: \(error)")
            }
        }

        // A second handle, the owner's, reads the store's state and verifies every row.
        let owner = try SecretStore(at: dir.storeURL, options: .init(access: .owner, deviceKeyURL: dir.deviceKeyURL,
                                                                     firstUnlockCache: .processMemory))
        Self.spawn("verifier", group) {
            while Date() < deadline {
                do {
                    _ = try owner.lockState
                    let report = try owner.verify()
                    if !report.isIntact || !report.itemsMatchDigest { ledger.issue("verify during the run: \(report)") }
                    ledger.count("verify")
                } catch {
                    ledger.issue("verifier: \(error)")
                }
                usleep(50_000)
            }
        }

        // Processes that open the store, unlock it and read an `always` item, one after another.
        Self.spawn("process reader", group) {
            var index = 0
            while Date() < deadline {
                index += 1
                let account = "always-\(index % 8)"
                do {
                    let outcome = try helper.run([
                        "read", "--store", dir.storeURL.path, "--device-key", dir.deviceKeyURL.path,
                        "--app-id", "ABCDE12345.com.example.app", "--group", TestEntitlements.g1,
                        "--service", Self.service, "--account", account, "--passphrase", Self.passphrase,
                        "--first-unlock-cache", "process",
                    ])
                    switch (outcome.status, outcome.lines.first) {
                    case (0, let line?):
                        let version = String(line.split(separator: "|").last ?? "")
                        Self.check(Data(line.utf8), label: version, account: account, ledger: ledger, by: "process reader")
                        ledger.count("process read")
                    case (1, "error itemNotFound -25300"):
                        ledger.count("process itemNotFound")
                    default:
                        ledger.issue("process reader: \(account): status \(outcome.status), \(outcome.lines)")
                    }
                } catch {
                    ledger.issue("process reader: cannot start the helper: \(error)")
                }
            }
        }

        group.wait()
        // The key churn ran the whole time: a failed passphrase change would have ended it.
        #expect(churn.process.isRunning, "the churn-passphrase process ended early")
        churn.kill()

        #expect(ledger.issues.withLock { $0 } == [])
        let counts = ledger.counts.withLock { $0 }
        #expect(["update", "read", "unlock", "verify", "process read"].allSatisfy { counts[$0, default: 0] > 0 }, "\(counts)")

        // Every item holds its writer's last value, and the store verifies.
        let reopened = try dir.openProcessLocalStore()
        try reopened.unlock(passphrase: Self.passphrase)
        for (account, value) in ledger.final.withLock({ $0 }) {
            let found = (try? reopened.items(matching: Query(service: Self.service, account: account, returning: [.attributes, .data]))) ?? []
            #expect(found.first?.attributes.label == value, "\(account)")
            if let value { #expect(found.first?.data == Self.secret(account, value), "\(account)") }
        }
        let report = try owner.verify()
        #expect(report.isIntact && report.itemsMatchDigest, "\(report)")
    }
}
