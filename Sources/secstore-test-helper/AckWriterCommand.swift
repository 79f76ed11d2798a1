import ArgumentParser
import Foundation
import SecStore

/// `ack-writer`: adds, updates and deletes items in a fixed sequence until killed. Before
/// operation n it prints `try <n> <step>…` (steps `set:<account>=<value>`, `delete:<account>`),
/// and `ack <n>` once it returned success, so the crash campaign knows every acknowledged
/// operation and the one in flight without a copy of the sequence. Operation n (from 0): add
/// `a<n> = v<n>`; when n is a multiple of 3, update `a<n-1> = u<n>`; when a multiple of 5,
/// delete `a<n-2>`.
struct AckWriterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ack-writer",
        abstract: "Write a fixed sequence of operations until killed, acknowledging each on stdout.")

    @OptionGroup var storeOptions: StoreOptions

    /// One step of the sequence.
    enum Step: Equatable {
        case add(account: String, value: String)
        case update(account: String, value: String)
        case delete(account: String)
    }

    /// The steps of operation `n`, in order.
    static func plan(_ n: Int) -> [Step] {
        var steps: [Step] = [.add(account: "a\(n)", value: "v\(n)")]
        if n >= 1 && n % 3 == 0 { steps.append(.update(account: "a\(n - 1)", value: "u\(n)")) }
        if n >= 2 && n % 5 == 0 { steps.append(.delete(account: "a\(n - 2)")) }
        return steps
    }

    func run() throws {
        let store = try storeOptions.openStore()
        var n = 0
        while true {
            let steps = Self.plan(n).map { step -> String in
                switch step {
                case .add(let account, let value), .update(let account, let value): "set:\(account)=\(value)"
                case .delete(let account): "delete:\(account)"
                }
            }
            print("try \(n) " + steps.joined(separator: " "))
            fflush(nil)   // out before the commit: a kill after it must not hide the attempt
            // One transaction per operation: its steps commit together or not at all.
            try store.write { transaction in
                for step in Self.plan(n) {
                    switch step {
                    case .add(let account, let value):
                        try transaction.add(.genericPassword(service: "crash", account: account, data: Data(value.utf8)))
                    case .update(let account, let value):
                        try transaction.update(matching: Query(service: "crash", account: account), with: ItemChanges(data: Data(value.utf8)))
                    case .delete(let account):
                        try transaction.delete(matching: Query(service: "crash", account: account))
                    }
                }
            }
            print("ack \(n)")
            fflush(nil)
            n += 1
        }
    }
}
