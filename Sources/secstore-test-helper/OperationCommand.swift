import Foundation
import SecStore

/// `op --op add|read|update|delete --service S --account A [--in-group G] [--value V]`:
/// one SecStore call as an app with the given entitlements. Prints `ok` (and the secret for
/// a read), or `error <code> <OSStatus>`.
enum OperationCommand {
    static func run(_ arguments: HelperArguments) throws {
        let store = try arguments.openStore()
        let service = try arguments.required("service")
        let account = try arguments.required("account")
        let group = arguments.optional("in-group")
        let value = Data((arguments.optional("value") ?? "").utf8)
        let query = Query(service: service, account: account, accessGroup: group, returning: .data)
        switch try arguments.required("op") {
        case "add":
            try store.add(.genericPassword(service: service, account: account, data: value, accessGroup: group))
            print("ok")
        case "read":
            print("ok \(String(decoding: try store.items(matching: query)[0].data ?? Data(), as: UTF8.self))")
        case "update":
            try store.update(matching: query, with: ItemChanges(data: value))
            print("ok")
        case "delete":
            try store.delete(matching: query)
            print("ok")
        case let other:
            throw HelperArguments.UsageError(message: "unknown --op \(other)")
        }
    }
}
