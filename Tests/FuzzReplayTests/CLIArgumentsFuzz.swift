import ArgumentParser
import Foundation
import SecStore
import SecStoreFuzzing
@testable import secstore

/// The sixth fuzz target, `cli-arguments`: the `secstore` tool's argument types and command
/// line. It lives here rather than in `SecStoreFuzzing` because it needs the executable's
/// module, which only a test target may import; `scripts/fuzz.sh` compiles this same file
/// into the libFuzzer binary.
///
/// The first byte chooses the mode:
/// - even: the rest, as one string, through every `ExpressibleByArgument` type of the tool
///   (`ItemClass`, `Accessibility`, `ImportConflictPolicy`, `ProtocolArgument`,
///   `DurationArgument`, `ByteSize`). Checked: what parses is in range (a duration positive,
///   infinite only on overflow, which `unlock` refuses; a size not negative; a protocol a code
///   of at most four characters) and the names the tool prints for a value parse back to it.
/// - odd: the rest, split at zero bytes, as a whole command line through
///   `SecstoreCommand.parseAsRoot` (every command's options and `validate()`), then what the
///   commands compute from their options before touching a store (the item's attributes and
///   query, the Argon2id limits, the shared-unlock duration); a refusal's message and exit
///   status are computed as the tool would print them.
public enum CLIArgumentsFuzz {
    public static let name = "cli-arguments"

    public static func run(_ bytes: [UInt8]) throws(FuzzViolation) -> FuzzOutcome {
        var input = FuzzInput(bytes)
        let mode = input.byte()
        let rest = input.rest()
        if mode % 2 == 0 {
            return try parseTypes(String(decoding: rest, as: UTF8.self))
        }
        let arguments = rest.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        return try parseCommandLine(Array(arguments.prefix(64)))
    }

    static func violation(_ message: String) -> FuzzViolation { FuzzViolation(target: name, message) }

    static func parseTypes(_ text: String) throws(FuzzViolation) -> FuzzOutcome {
        var parsed: [String] = []
        if let itemClass = ItemClass(argument: text) {
            guard ItemClass(argument: itemClass.rawValue) == itemClass else { throw violation("class \(itemClass) does not parse back") }
            parsed.append("class")
        }
        if let accessibility = Accessibility(argument: text) {
            guard Accessibility(argument: accessibility.rawValue) == accessibility,
                  Accessibility(argument: accessibility.description) == accessibility else {
                throw violation("accessibility \(accessibility) does not parse back")
            }
            parsed.append("accessibility")
        }
        if let policy = ImportConflictPolicy(argument: text) {
            guard ImportConflictPolicy(argument: policy.rawValue) == policy else { throw violation("policy \(policy) does not parse back") }
            parsed.append("policy")
        }
        if let argument = ProtocolArgument(argument: text) {
            let code = argument.value.rawValue
            guard !code.isEmpty, code.utf16.count <= 4 || ProtocolArgument.names[text.lowercased()] != nil else {
                throw violation("protocol \"\(text)\" became the code \"\(code)\"")
            }
            var attributes = Attributes()
            attributes.protocol = argument.value
            _ = attributes.protocol
            parsed.append("protocol")
        }
        if let duration = DurationArgument(argument: text) {
            guard !duration.seconds.isNaN, duration.seconds > 0 else {
                throw violation("duration \"\(text)\" is \(duration.seconds) seconds")
            }
            parsed.append("duration")
        }
        if let size = ByteSize(argument: text) {
            guard size.bytes >= 0 else { throw violation("size \"\(text)\" is \(size.bytes) bytes") }
            parsed.append("size")
        }
        return parsed.isEmpty ? .refused("no type") : .accepted(parsed.joined(separator: " "))
    }

    static func parseCommandLine(_ arguments: [String]) throws(FuzzViolation) -> FuzzOutcome {
        let command: ParsableCommand
        do {
            command = try SecstoreCommand.parseAsRoot(arguments)
        } catch {
            let status = SecstoreCommand.exitCode(for: error)
            _ = SecstoreCommand.fullMessage(for: error)
            return .refused("exit \(status.rawValue)")
        }
        try derive(command)
        return .accepted("\(type(of: command))")
    }

    /// What the commands compute from their options before they open a store.
    static func derive(_ command: ParsableCommand) throws(FuzzViolation) {
        for child in Mirror(reflecting: command).children {
            if let group = child.value as? OptionGroup<ItemOptions> {
                let item = group.wrappedValue
                var attributes = item.attributes
                _ = item.summary
                let itemClass = item.resolvedClass(default: nil)
                if let reference = item.persistentReference, itemClass != reference.itemClass {
                    throw violation("--ref names a \(reference.itemClass) item but the class resolved to \(String(describing: itemClass))")
                }
                _ = item.query(for: itemClass ?? .genericPassword, returning: [.attributes])
                if let details = (command as? AddCommand)?.details { details.apply(to: &attributes) }
                _ = attributes.description
            }
            if let group = child.value as? OptionGroup<KDFOptions> {
                let limits = group.wrappedValue.limits
                guard limits.isAcceptable else { throw violation("KDF options validated but \(limits) is not acceptable") }
            }
        }
        if let unlock = command as? UnlockCommand, let duration = unlock.duration {
            guard duration.seconds <= SecretStore.longestSharedUnlock else {
                throw violation("unlock --for validated \(duration.seconds) seconds, beyond the longest shared unlock")
            }
            _ = Int64(duration.seconds.rounded(.up))
        }
    }
}

extension CLIArgumentsFuzz {
    /// The seed corpus: one string per argument type, and real command lines of docs/cli.md.
    public static var seeds: [(name: String, bytes: [UInt8])] {
        let types = ["genp", "internet-password", "afterFirstUnlock", "cku", "replace", "https", "ssh ", "htps",
                     "90s", "30d", "8h", "256M", "8192", "1GiB"]
        let lines: [(String, [String])] = [
            ("add", ["add", "--service", "api.example.com", "--account", "alice", "--value", "s3cr3t", "--accessibility", "afterFirstUnlock"]),
            ("add-internet", ["add", "--server", "example.com", "--protocol", "https", "--port", "443", "--account", "bob",
                              "--path", "/login", "--authentication-type", "form", "--value-stdin"]),
            ("get", ["--store", "/tmp/x.secstore", "get", "--service", "api", "--account", "ci", "--json"]),
            ("get-by-ref", ["get", "--ref", "67656e700000000000000001a1b2c3d4e5f60718"]),
            ("list", ["list", "--class", "inet", "--show-secrets", "--json"]),
            ("update", ["update", "--service", "api", "--account", "alice", "--new-label", "rotated", "--new-group", "g2"]),
            ("delete-damaged", ["delete", "--ref", "67656e700000000000000001a1b2c3d4e5f60718", "--damaged"]),
            ("unlock-for", ["unlock", "--for", "8h", "--passphrase-env", "PASS"]),
            ("passphrase-set", ["passphrase", "set", "--kdf-ops", "3", "--kdf-memory", "64M", "--passphrase-stdin"]),
            ("passphrase-change", ["passphrase", "change", "--passphrase-env", "OLD", "--new-passphrase-file", "new.txt"]),
            ("export", ["export", "backup.ssb", "--kdf-memory", "8K", "--kdf-ops", "1", "--force", "--skip-damaged"]),
            ("import", ["import", "backup.ssb", "--on-conflict", "replace", "--backup-passphrase-file", "pass.txt"]),
            ("keyring-prune", ["keyring", "prune", "--all", "--dry-run"]),
            ("identity", ["identity", "reset", "--group", "ABCDE12345.com.example.shared", "--lowercase", "--json"]),
            ("help", ["help", "passphrase", "change"]),
        ]
        return types.map { ("type-\($0.replacingOccurrences(of: " ", with: "_"))", [0] + Array($0.utf8)) }
            + lines.map { name, arguments in ("line-\(name)", [1] + Array(arguments.joined(separator: "\u{0}").utf8)) }
    }
}

@_cdecl("secstore_fuzz_seeds_cli_arguments")
public func secstoreFuzzSeedsCLIArguments(_ directory: UnsafePointer<CChar>) -> Int32 {
    do {
        try FuzzSeeds.write(CLIArgumentsFuzz.seeds, to: URL(filePath: String(cString: directory)))
        return 0
    } catch {
        print("cannot write the seeds of cli-arguments: \(error)")
        return 1
    }
}

@_cdecl("secstore_fuzz_cli_arguments")
public func secstoreFuzzCLIArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    runForLibFuzzer(data, size) { bytes throws(FuzzViolation) in try CLIArgumentsFuzz.run(bytes) }
}
