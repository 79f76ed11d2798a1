import ArgumentParser
import Foundation
import SecStore

/// `op --op add|read|update|delete --service S --account A [--in-group G] [--value V]`:
/// one SecStore call as an app with the given entitlements. Prints `ok` (and the secret for
/// a read), or `error <code> <OSStatus>`: the access-group matrix of `AccessGroupProcessTests`.
struct OperationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "op",
        abstract: "One add, read, update or delete of a generic password; prints `ok` or the error.")

    /// The call to make.
    enum Operation: String, CaseIterable, ExpressibleByArgument {
        case add, read, update, delete
    }

    @OptionGroup var storeOptions: StoreOptions

    @Option(name: .customLong("op"), help: "The call to make.")
    var operation: Operation

    @Option(help: "The item's service.")
    var service: String

    @Option(help: "The item's account.")
    var account: String

    @Option(name: .customLong("in-group"), help: ArgumentHelp(
        "The access group to name in the call; none names no group.", valueName: "group"))
    var accessGroup: String?

    // `.unconditional`: the secret is test data and may start with "-".
    @Option(parsing: .unconditional, help: "The secret to add or update to (default: empty).")
    var value = ""

    func run() throws {
        let store = try storeOptions.openStore()
        let data = Data(value.utf8)
        let query = Query(service: service, account: account, accessGroup: accessGroup, returning: .data)
        switch operation {
        case .add:
            try store.add(.genericPassword(service: service, account: account, data: data, accessGroup: accessGroup))
            print("ok")
        case .read:
            print("ok \(String(decoding: try store.items(matching: query)[0].data ?? Data(), as: UTF8.self))")
        case .update:
            try store.update(matching: query, with: ItemChanges(data: data))
            print("ok")
        case .delete:
            try store.delete(matching: query)
            print("ok")
        }
    }
}
