import Foundation
import SecStore

/// `--name value` options, repeatable, plus a few common ones every command takes.
struct HelperArguments {
    struct UsageError: Error { let message: String }

    private var values: [String: [String]] = [:]

    init(_ arguments: [String]) throws {
        var index = 0
        while index < arguments.count {
            let flag = arguments[index]
            guard flag.hasPrefix("--"), index + 1 < arguments.count else {
                throw UsageError(message: "expected --option value, got \(flag)")
            }
            values[String(flag.dropFirst(2)), default: []].append(arguments[index + 1])
            index += 2
        }
    }

    func optional(_ name: String) -> String? { values[name]?.last }
    func all(_ name: String) -> [String] { values[name] ?? [] }

    func required(_ name: String) throws -> String {
        guard let value = optional(name) else { throw UsageError(message: "missing --\(name)") }
        return value
    }

    /// `--app-id` and repeated `--group` give entitlements; `--owner yes` gives owner access.
    var access: StoreAccess {
        if optional("owner") == "yes" { return .owner }
        return .entitled(Entitlements(applicationIdentifier: optional("app-id") ?? "test.helper",
                                      keychainAccessGroups: all("group")))
    }

    func openStore() throws -> SecretStore {
        var options = SecretStore.Options(access: access, deviceKeyURL: URL(filePath: try required("device-key")))
        if let cache = optional("first-unlock-cache") {
            options.firstUnlockCache = cache == "process" ? .processMemory : .kernelKeyring
        }
        return try SecretStore(at: URL(filePath: try required("store")), options: options)
    }
}

/// Prints a failure the way the tests parse it: `error <code name> <OSStatus>`.
func reportFailure(_ error: Error) {
    if let error = error as? SecStoreError {
        print("error \(error.code.name) \(error.status)")
    } else {
        print("error unexpected \(error)")
    }
}
