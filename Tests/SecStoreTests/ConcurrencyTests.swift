import Foundation
import SeededRandom
import Synchronization
import Testing
import SecStore

/// Many threads on one shared ``SecretStore`` (DESIGN.md: a `SecretStore` is `Sendable`).
@Suite struct ConcurrencyTests {
    static let workers = 8
    static let service = "concurrent"

    /// The secret written with version `version`: readers check that it matches the
    /// item's label, which the same write sets, so a half-applied write would show.
    static func secret(_ account: String, _ version: String) -> Data { Data("\(account)|\(version)".utf8) }

    /// What the threads share: every version ever written per account, and per shared
    /// account the successful adds and deletes.
    final class Ledger: Sendable {
        let written = Mutex<[String: Set<String>]>([:])
        let balance = Mutex<[String: Int]>([:])
        let issues = Mutex<[String]>([])
        /// Successful operations by kind, to show the run was not vacuous.
        let successes = Mutex<[String: Int]>([:])

        func wrote(_ account: String, _ version: String) { written.withLock { _ = $0[account, default: []].insert(version) } }
        func adjust(_ account: String, by delta: Int) { balance.withLock { $0[account, default: 0] += delta } }
        func issue(_ text: String) { issues.withLock { $0.append(text) } }
        func succeeded(_ kind: String) { successes.withLock { $0[kind, default: 0] += 1 } }
    }

    /// One worker: random adds, reads, updates and deletes over its own accounts (whose
    /// outcome it can predict exactly) and over accounts every worker fights over.
    static func work(_ worker: Int, store: SecretStore, ledger: Ledger, operations: Int) -> [String: String] {
        var generator = SplitMix64(seed: UInt64(worker + 1))
        let own = (0..<3).map { "own-\(worker)-\($0)" }
        let shared = (0..<3).map { "shared-\($0)" }
        var expected: [String: String] = [:]  // own account → current version

        for step in 0..<operations {
            let mine = Bool.random(using: &generator)
            let account = (mine ? own : shared).randomElement(using: &generator)!
            let version = "w\(worker)-s\(step)"
            let query = Query(service: service, account: account, returning: [.attributes, .data])
            do {
                switch Int.random(in: 0..<4, using: &generator) {
                case 0:
                    ledger.wrote(account, version)
                    try store.add(.genericPassword(service: service, account: account, data: secret(account, version), label: version))
                    ledger.succeeded("add")
                    if mine {
                        if expected[account] != nil { ledger.issue("add of present \(account) succeeded") }
                        expected[account] = version
                    } else {
                        ledger.adjust(account, by: 1)
                    }
                case 1:
                    ledger.wrote(account, version)
                    let count = try store.update(matching: query, with: ItemChanges(attributes: [.label: .string(version)],
                                                                                   data: secret(account, version)))
                    if count != 1 { ledger.issue("update of \(account) changed \(count) items") }
                    ledger.succeeded("update")
                    if mine {
                        if expected[account] == nil { ledger.issue("update of absent \(account) succeeded") }
                        expected[account] = version
                    }
                case 2:
                    let count = try store.delete(matching: query)
                    if count != 1 { ledger.issue("delete of \(account) removed \(count) items") }
                    ledger.succeeded("delete")
                    if mine {
                        if expected[account] == nil { ledger.issue("delete of absent \(account) succeeded") }
                        expected[account] = nil
                    } else {
                        ledger.adjust(account, by: -1)
                    }
                default:
                    let found = try store.items(matching: query)
                    check(found, account: account, ledger: ledger)
                    ledger.succeeded("read")
                    if mine, found.first?.attributes.label != expected[account] {
                        ledger.issue("read \(account) as \(found.first?.attributes.label ?? "nil"), expected \(expected[account] ?? "nil")")
                    }
                }
            } catch let error as SecStoreError where error.code == .duplicateItem || error.code == .itemNotFound {
                if mine && (error.code == .duplicateItem) != (expected[account] != nil) {
                    ledger.issue("\(error.code) on \(account) whose expected version is \(expected[account] ?? "nil")")
                }
            } catch {
                ledger.issue("unexpected error on \(account): \(error)")
            }
        }
        return expected
    }

    /// A read item is whole: its secret is the one written with its label, and that
    /// version was really written for this account.
    static func check(_ found: [Item], account: String, ledger: Ledger) {
        guard found.count == 1, let item = found.first, let version = item.attributes.label else {
            ledger.issue("read of \(account) returned \(found.count) items")
            return
        }
        if item.data != secret(account, version) { ledger.issue("torn read of \(account): label \(version)") }
        if !ledger.written.withLock({ $0[account]?.contains(version) ?? false }) {
            ledger.issue("read of \(account) returned a version never written: \(version)")
        }
    }

    @Test func mixedOperationsLoseNothing() throws {
        let harness = try StoreHarness()
        let store: SecretStore = harness.store
        let ledger = Ledger()
        let outcomes = Mutex<[String: String]>([:])
        DispatchQueue.concurrentPerform(iterations: Self.workers) { worker in
            let expected = Self.work(worker, store: store, ledger: ledger, operations: 60)
            outcomes.withLock { $0.merge(expected) { _, new in new } }
        }
        #expect(ledger.issues.withLock { $0 } == [])
        let successes = ledger.successes.withLock { $0 }
        #expect(["add", "update", "delete", "read"].allSatisfy { successes[$0, default: 0] >= 10 }, "\(successes)")

        try harness.settle(.reopened)
        let all = try harness.store.items(matching: Query(service: Self.service, limit: .all, returning: [.attributes, .data]))
        let stored = Dictionary(uniqueKeysWithValues: all.map { ($0.attributes.account!, $0) })
        let own = outcomes.withLock { $0 }
        for (account, item) in stored {
            Self.check([item], account: account, ledger: ledger)
        }
        #expect(ledger.issues.withLock { $0 } == [])
        // Own accounts hold exactly the last version their worker wrote.
        #expect(stored.filter { $0.key.hasPrefix("own-") }.mapValues { $0.attributes.label ?? "" } == own)
        // A shared account exists exactly when its successful adds outnumber its deletes by one.
        let balances = ledger.balance.withLock { $0 }
        for (account, balance) in balances {
            #expect(balance == (stored[account] == nil ? 0 : 1), "\(account): balance \(balance)")
        }
        #expect(stored.keys.filter { $0.hasPrefix("shared-") }.allSatisfy { balances[$0] == 1 })
    }

    /// Every thread adds the same item at once: exactly one wins, the others get
    /// errSecDuplicateItem, and the stored secret is the winner's.
    @Test func racingAddsHaveOneWinner() throws {
        let harness = try StoreHarness()
        let store: SecretStore = harness.store
        let winners = Mutex<[Int]>([])
        let others = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: Self.workers) { worker in
            do {
                try store.add(.genericPassword(service: "race", account: "same", data: Data("worker \(worker)".utf8)))
                winners.withLock { $0.append(worker) }
            } catch let error as SecStoreError where error.code == .duplicateItem {
            } catch {
                others.withLock { $0.append("\(error)") }
            }
        }
        let winner = try #require(winners.withLock { $0 }.first)
        #expect(winners.withLock { $0.count } == 1)
        #expect(others.withLock { $0 } == [])
        #expect(try store.secret(Query(service: "race", account: "same")) == Data("worker \(winner)".utf8))
    }

    /// Readers running beside bulk transactions see each batch entirely or not at all.
    @Test func readersSeeWholeTransactions() throws {
        let harness = try StoreHarness()
        let store: SecretStore = harness.store
        let batch = 20
        let done = Atomic<Bool>(false)
        let observed = Mutex<Set<Int>>([])
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            do {
                if index == 0 {
                    defer { done.store(true, ordering: .releasing) }
                    for round in 0..<6 {
                        try store.write { transaction in
                            for item in 0..<batch {
                                try transaction.add(.genericPassword(service: "batch", account: "r\(round)-\(item)"))
                            }
                        }
                        try store.delete(matching: Query(service: "batch"))
                    }
                } else {
                    repeat {
                        let count = try store.count(Query(service: "batch"))
                        observed.withLock { _ = $0.insert(count) }
                    } while !done.load(ordering: .acquiring)
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(!observed.withLock { $0 }.isEmpty)
        #expect(observed.withLock { $0 }.isSubset(of: [0, batch]))
        #expect(try store.count(Query(service: "batch")) == 0)
    }
}
