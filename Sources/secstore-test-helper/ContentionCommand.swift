import ArgumentParser
import Foundation
import SecStore
import SeededRandom

/// `contend --worker N --operations K --seed S [--start-after PATH]`: K mixed operations on
/// one store, as worker N, for the multi-process contention test.
///
/// Each worker adds, reads, updates and deletes its own accounts `w<N>-<k>` (nobody else
/// writes them, so the worker knows their final state), reads other workers' accounts, and
/// races every other worker to claim shared accounts `shared-<k>` with an add. It prints one
/// line per outcome the test checks:
///   `final <account> <value>` or `final <account> -` (deleted) for each own account touched,
///   `claimed <account> <value>` for each shared add that succeeded,
///   `count <operation> <n>` per operation kind, and `unexpected <detail>` for any other error.
struct ContentionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contend",
        abstract: "Run a seeded mix of operations as one worker of the contention test.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var startGate: StartGateOptions

    @Option(help: "This worker's number; names its own accounts w<N>-<k>.")
    var worker: Int

    @Option(help: "How many operations to run.")
    var operations: Int

    @Option(help: "The workload seed; each worker draws from seed + worker, so a run can be repeated.")
    var seed: UInt64

    func run() throws {
        startGate.waitForGate()
        let store = try storeOptions.openStore()
        var random = SplitMix64(seed: seed &+ UInt64(worker))
        var own: [String: String?] = [:]
        var counts: [String: Int] = [:]

        for index in 0..<operations {
            let value = "w\(worker)-op\(index)"
            let roll = random.next() % 100
            let mine = "w\(worker)-\(random.next() % 12)"
            do {
                switch roll {
                case 0..<30:
                    counts["add", default: 0] += 1
                    do {
                        try store.add(.genericPassword(service: "contention", account: mine, data: Data(value.utf8)))
                        own[mine] = .some(value)
                    } catch let error as SecStoreError where error.code == .duplicateItem {
                        guard own[mine] != nil, own[mine]! != nil else { throw error }
                    }
                case 30..<50:
                    counts["update", default: 0] += 1
                    do {
                        try store.update(matching: Query(service: "contention", account: mine), with: ItemChanges(data: Data(value.utf8)))
                        own[mine] = .some(value)
                    } catch let error as SecStoreError where error.code == .itemNotFound {
                        guard own[mine] == nil || own[mine]! == nil else { throw error }
                    }
                case 50..<62:
                    counts["delete", default: 0] += 1
                    do {
                        try store.delete(matching: Query(service: "contention", account: mine))
                        own[mine] = .some(nil)
                    } catch let error as SecStoreError where error.code == .itemNotFound {
                        guard own[mine] == nil || own[mine]! == nil else { throw error }
                    }
                case 62..<72:
                    counts["claim", default: 0] += 1
                    let shared = "shared-\(random.next() % 8)"
                    do {
                        try store.add(.genericPassword(service: "contention", account: shared, data: Data(value.utf8)))
                        print("claimed \(shared) \(value)")
                    } catch let error as SecStoreError where error.code == .duplicateItem {}
                default:
                    counts["read", default: 0] += 1
                    let other = "w\(random.next() % 8)-\(random.next() % 12)"
                    do {
                        let data = try store.items(matching: Query(service: "contention", account: other, returning: .data))[0].data ?? Data()
                        // A reader never sees a half-written value: always one a worker wrote.
                        let text = String(decoding: data, as: UTF8.self)
                        if !text.hasPrefix("w") || !text.contains("-op") { print("unexpected torn-read \(other) \(text)") }
                        if other.hasPrefix("w\(worker)-"), own[other] == nil || own[other]! != text {
                            print("unexpected stale-own-read \(other) \(text)")
                        }
                    } catch let error as SecStoreError where error.code == .itemNotFound {}
                }
            } catch {
                print("unexpected op\(index) \(error)")
            }
        }
        for (account, value) in own.sorted(by: { $0.key < $1.key }) {
            print("final \(account) \(value ?? "-")")
        }
        for (kind, count) in counts.sorted(by: { $0.key < $1.key }) {
            print("count \(kind) \(count)")
        }
    }
}
