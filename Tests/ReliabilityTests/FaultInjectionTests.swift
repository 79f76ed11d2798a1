import Foundation
import SecStoreTestSupport
import Testing
@testable import SecStore

/// Fault injection at the system boundary (issue 15, item 5). Each writer of the `secstore`
/// tool (and DeviceIdentity's mirror, through the test helper) runs with
/// Tests/FaultInjection/faultinject.c preloaded, which fails its N-th open, write, fsync,
/// rename, link, unlink, truncate or mkdir under the test directory with ENOSPC, EIO, EDQUOT,
/// EACCES or a short write. Every run must end with status 0 and the operation done, or with
/// a documented status (1–9) and a message — never a signal — and the store must verify
/// intact afterwards holding the state from before or after the operation, nothing between.
///
/// A first run of each writer counts its calls of each kind (`FI_CALL=all`); the suite then
/// fails the first, the last and one in between of each kind, rotating the errors;
/// `scripts/fault-injection.sh` (`SECSTORE_FAULTS=all`) fails every call with every error.
@Suite(.enabled(if: isInstalled("cc"), "needs a C compiler to build the preload library"))
struct FaultInjectionTests {
    static let exhaustive = ProcessInfo.processInfo.environment["SECSTORE_FAULTS"] == "all"

    @Test(arguments: FaultWriter.all)
    func everyFailureIsAllOrNothingAndTyped(_ writer: FaultWriter) throws {
        let library = try FaultLibrary.shared()
        let template = TemporaryDirectory("secstore-faults-template")
        let fixture = FaultFixture(root: template.url)
        try writer.prepare(fixture)

        // Count the calls a clean run makes, per kind, under the test directory.
        let counting = TemporaryDirectory("secstore-faults")
        try copyContents(of: template.url, to: counting.url)
        let log = counting.url.appending(path: "fi.log")
        let clean = try writer.run(FaultFixture(root: counting.url), library: library,
                                   environment: ["FI_CALL": "all", "FI_NTH": "0", "FI_LOG": log.path])
        #expect(clean.status == 0, "\(writer.name) fails without faults: \(clean.output)")
        var counts: [String: Int] = [:]
        for line in (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n") ?? [] {
            counts[String(line.split(separator: " ")[0]), default: 0] += 1
        }
        #expect(!counts.isEmpty, "\(writer.name): the preload library saw no call")

        let errors = ["ENOSPC", "EIO", "EDQUOT", "EACCES"]
        var runs = 0, failedTyped = 0, succeeded = 0
        var committedDespiteError: [String] = [], syncFailureIgnored: [String] = []
        for (call, total) in counts.sorted(by: { $0.key < $1.key }) {
            let points = Self.exhaustive ? Array(1...total) : Array(Set([1, total, (total + 1) / 2])).sorted()
            for nth in points {
                let kinds = call == "write" ? errors + ["short"] : errors
                for error in Self.exhaustive ? kinds : [kinds[runs % kinds.count]] {
                    runs += 1
                    let place = "\(writer.name): \(call) #\(nth) of \(total) fails with \(error)"
                    let scratch = TemporaryDirectory("secstore-faults")
                    try copyContents(of: template.url, to: scratch.url)
                    let fixture = FaultFixture(root: scratch.url)
                    let result = try writer.run(fixture, library: library,
                                                environment: ["FI_CALL": call, "FI_NTH": String(nth), "FI_ERRNO": error,
                                                              "FI_PATH": scratch.url.path,
                                                              "FI_LOG": scratch.url.appending(path: "fi.log").path])
                    guard result.exitedNormally else {
                        Issue.record("\(place): killed by signal \(result.status)\n\(result.output)")
                        continue
                    }
                    #expect((0...9).contains(result.status), "\(place): status \(result.status)\n\(result.output)")
                    if result.status != 0 {
                        failedTyped += 1
                        #expect(writer.reportsError(result.output), "\(place): status \(result.status) without a message: \(result.output)")
                    } else {
                        succeeded += 1
                        // Success although an fsync failed: durable only if that sync did not matter.
                        if call == "fsync" { syncFailureIgnored.append("\(call) #\(nth) \(Self.failedPath(log: scratch.url))") }
                    }
                    do {
                        let applied = try writer.check(fixture)
                        if result.status == 0 {
                            #expect(applied, "\(place): success reported, but the operation is not in the store")
                        } else if applied {
                            committedDespiteError.append(place)
                        }
                    } catch {
                        Issue.record("\(place): status \(result.status), and then: \(error)\n\(result.output.suffix(800))")
                    }
                }
            }
        }
        print("fault-injection: \(writer.name): \(runs) runs over calls \(counts.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")): "
              + "\(succeeded) succeeded whole, \(failedTyped) failed with a typed error and a message"
              + (committedDespiteError.isEmpty ? "" : "; committed although an error was reported: \(committedDespiteError.joined(separator: "; "))")
              + (syncFailureIgnored.isEmpty ? "" : "; success although this fsync failed: \(syncFailureIgnored.joined(separator: "; "))"))
    }

    /// The file whose call was failed, from the run's log (relative to its directory).
    static func failedPath(log directory: URL) -> String {
        let text = (try? String(contentsOf: directory.appending(path: "fi.log"), encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasSuffix(" injected") } ?? ""
        let path = line.split(separator: " ").dropFirst(2).first.map(String.init) ?? "?"
        return path.replacingOccurrences(of: directory.path + "/", with: "")
    }
}

/// The preload library, built once per test process from Tests/FaultInjection/faultinject.c.
enum FaultLibrary {
    nonisolated(unsafe) private static var built: URL?
    private static let lock = NSLock()

    static func shared() throws -> URL {
        lock.lock()
        defer { lock.unlock() }
        if let built { return built }
        let source = scriptsDirectory.deletingLastPathComponent().appending(path: "Tests/FaultInjection/faultinject.c")
        let output = URL(filePath: NSTemporaryDirectory()).appending(path: "secstore-faultinject-\(getpid()).so")
        let compile = try runProgram("/usr/bin/env", ["cc", "-shared", "-fPIC", "-O1", "-o", output.path, source.path, "-ldl"])
        guard compile.status == 0 else {
            throw FaultFixture.Failure(description: "building the preload library failed: \(compile.output)")
        }
        built = output
        return output
    }
}

/// The files of one run: a store with a passphrase, its device key, a backup, passphrase files.
struct FaultFixture {
    let root: URL
    var store: URL { root.appending(path: "data/s.secstore") }
    var plainStore: URL { root.appending(path: "data/plain.secstore") }
    var key: URL { root.appending(path: "keys/device.key") }
    var backup: URL { root.appending(path: "in.ssb") }
    var exported: URL { root.appending(path: "out.ssb") }
    var created: URL { root.appending(path: "new/c.secstore") }
    var createdKey: URL { root.appending(path: "newkeys/device.key") }
    var mirror: URL { root.appending(path: "mirror/identity") }
    func passFile(_ name: String) -> URL { root.appending(path: "pass-\(name)") }

    struct Failure: Error, CustomStringConvertible { let description: String }

    func open(_ url: URL? = nil, passphrase: String? = "old") throws -> SecretStore {
        let store = try SecretStore(at: url ?? self.store, options: .init(access: .owner, deviceKeyURL: key, createIfMissing: false,
                                                                        firstUnlockCache: .processMemory))
        if let passphrase, try store.lockState != .noPassphrase { try store.unlock(passphrase: passphrase) }
        return store
    }

    /// `verify()` intact, or a thrown description.
    func requireIntact(_ store: SecretStore) throws {
        let report = try store.verify()
        guard report.isIntact, report.itemsMatchDigest else {
            throw Failure(description: "verify: \(report.databaseProblems) \(report.damagedItems.map(\.problem))")
        }
    }

    func secret(_ store: SecretStore, service: String, account: String) throws -> String? {
        try store.find(Query(service: service, account: account, returning: .data)).first.map { String(decoding: $0.data ?? Data(), as: UTF8.self) }
    }
}

/// One writer: how to set it up, run it and tell whether it happened.
struct FaultWriter: Sendable, CustomTestStringConvertible {
    let name: String
    let usesHelper: Bool
    let arguments: @Sendable (FaultFixture) -> [String]
    /// True: the operation happened; false: it did not. Throws when the store is damaged or
    /// holds part of it.
    let check: @Sendable (FaultFixture) throws -> Bool
    var testDescription: String { name }

    init(_ name: String, helper: Bool = false, _ arguments: @escaping @Sendable (FaultFixture) -> [String],
         check: @escaping @Sendable (FaultFixture) throws -> Bool) {
        self.name = name
        usesHelper = helper
        self.arguments = arguments
        self.check = check
    }

    struct Result { var status: Int32; var exitedNormally: Bool; var output: String }

    func run(_ fixture: FaultFixture, library: URL, environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = HelperProcess(product: usesHelper ? "secstore-test-helper" : "secstore").executableURL
        process.arguments = arguments(fixture)
        process.environment = ProcessInfo.processInfo.environment
            .merging(["LD_PRELOAD": library.path, "SECSTORE_KEYRING": "off"].merging(environment) { _, new in new }) { _, new in new }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.runWithCleanSignals()
        let data = try pipe.fileHandleForReading.readToEnd() ?? Data()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, exitedNormally: process.terminationReason == .exit,
                      output: String(decoding: data, as: UTF8.self))
    }

    /// The tool says `secstore: error: …`; the helper prints `error <name> <status>`.
    func reportsError(_ output: String) -> Bool {
        usesHelper ? output.contains("error ") : output.contains("error:")
    }

    /// Sets up the template every run of this writer copies.
    func prepare(_ fixture: FaultFixture) throws {
        let options = SecretStore.Options(access: .owner, deviceKeyURL: fixture.key, firstUnlockCache: .processMemory)
        let store = try SecretStore.create(at: fixture.store, options: options, passphrase: "old", limits: .minimumForTesting)
        try store.unlock(passphrase: "old")
        try store.add(.genericPassword(service: "s", account: "a", data: Data("one".utf8), accessGroup: "g"))
        try store.add(.genericPassword(service: "s", account: "b", data: Data("two".utf8), accessGroup: "g"))
        _ = try SecretStore.create(at: fixture.plainStore, options: options)
        let source = try SecretStore(at: fixture.root.appending(path: "source.secstore"), options: options)
        for index in 0..<3 {
            try source.add(.genericPassword(service: "imp", account: "i\(index)", data: Data("v\(index)".utf8), accessGroup: "g"))
        }
        _ = try source.exportBackup(to: fixture.backup, passphrase: "backup", limits: .minimumForTesting)
        for (name, value) in [("old", "old"), ("new", "new"), ("backup", "backup")] {
            try Data("\(value)\n".utf8).write(to: fixture.passFile(name))
            chmod(fixture.passFile(name).path, 0o600)
        }
    }

    static let kdf = ["--kdf-ops", "1", "--kdf-memory", "8K"]

    static func storeArguments(_ f: FaultFixture) -> [String] { ["--store", f.store.path, "--device-key", f.key.path] }

    static let all: [FaultWriter] = [
        FaultWriter("add", { storeArguments($0) + ["add", "--service", "s", "--account", "c", "--group", "g", "--value", "three",
                                                   "--passphrase-file", $0.passFile("old").path] }) { f in
            let store = try f.open()
            try f.requireIntact(store)
            switch try f.secret(store, service: "s", account: "c") {
            case nil: return false
            case "three": return true
            case let other: throw FaultFixture.Failure(description: "the added item holds \(other ?? "")")
            }
        },
        FaultWriter("update", { storeArguments($0) + ["update", "--service", "s", "--account", "a", "--value", "changed",
                                                      "--passphrase-file", $0.passFile("old").path] }) { f in
            let store = try f.open()
            try f.requireIntact(store)
            switch try f.secret(store, service: "s", account: "a") {
            case "one": return false
            case "changed": return true
            case let other: throw FaultFixture.Failure(description: "the updated item holds \(other ?? "nothing")")
            }
        },
        FaultWriter("delete", { storeArguments($0) + ["delete", "--service", "s", "--account", "a",
                                                      "--passphrase-file", $0.passFile("old").path] }) { f in
            let store = try f.open()
            try f.requireIntact(store)
            switch try f.secret(store, service: "s", account: "a") {
            case "one": return false
            case nil: return true
            case let other: throw FaultFixture.Failure(description: "the deleted item holds \(other ?? "")")
            }
        },
        FaultWriter("passphrase change", { storeArguments($0) + ["passphrase", "change", "--passphrase-file", $0.passFile("old").path,
                                                                 "--new-passphrase-file", $0.passFile("new").path] + kdf }) { f in
            let store = try f.open(passphrase: nil)
            let opening = ["old", "new"].filter { (try? store.unlock(passphrase: $0)) != nil }
            guard opening.count == 1 else { throw FaultFixture.Failure(description: "passphrases that open it: \(opening)") }
            try store.unlock(passphrase: opening[0])
            try f.requireIntact(store)
            guard try f.secret(store, service: "s", account: "a") == "one" else { throw FaultFixture.Failure(description: "item a lost") }
            return opening == ["new"]
        },
        FaultWriter("passphrase remove", { storeArguments($0) + ["passphrase", "remove", "--passphrase-file", $0.passFile("old").path] }) { f in
            let store = try f.open()
            try f.requireIntact(store)
            guard try f.secret(store, service: "s", account: "b") == "two" else { throw FaultFixture.Failure(description: "item b lost") }
            return try store.lockState == .noPassphrase
        },
        FaultWriter("passphrase set", { ["--store", $0.plainStore.path, "--device-key", $0.key.path, "passphrase", "set",
                                          "--passphrase-file", $0.passFile("new").path] + kdf }) { f in
            let store = try f.open(f.plainStore, passphrase: nil)
            if try store.lockState == .noPassphrase {
                try f.requireIntact(store)
                return false
            }
            try store.unlock(passphrase: "new")
            try f.requireIntact(store)
            return true
        },
        FaultWriter("export", { storeArguments($0) + ["export", $0.exported.path, "--backup-passphrase-file", $0.passFile("backup").path,
                                                      "--passphrase-file", $0.passFile("old").path] + kdf }) { f in
            try f.requireIntact(try f.open())
            guard FileManager.default.fileExists(atPath: f.exported.path) else { return false }
            // A backup at the path is a whole one: it imports every item.
            let scratch = try SecretStore.create(at: f.root.appending(path: "check.secstore"),
                                                 options: .init(access: .owner, deviceKeyURL: f.key))
            let summary = try scratch.importBackup(from: f.exported, passphrase: "backup")
            guard summary.added == 2 else { throw FaultFixture.Failure(description: "the backup holds \(summary.added) of 2 items") }
            return true
        },
        FaultWriter("import", { storeArguments($0) + ["import", $0.backup.path, "--backup-passphrase-file", $0.passFile("backup").path,
                                                      "--passphrase-file", $0.passFile("old").path] }) { f in
            let store = try f.open()
            try f.requireIntact(store)
            let count = try store.find(Query(service: "imp", limit: .all)).count
            guard count == 0 || count == 3 else { throw FaultFixture.Failure(description: "\(count) of 3 items imported") }
            return count == 3
        },
        FaultWriter("create with a new device key", { ["--store", $0.created.path, "--device-key", $0.createdKey.path, "create",
                                                       "--passphrase-file", $0.passFile("new").path] + kdf }) { f in
            guard FileManager.default.fileExists(atPath: f.created.path) else { return false }
            let store = try SecretStore(at: f.created, options: .init(access: .owner, deviceKeyURL: f.createdKey, createIfMissing: false))
            try store.unlock(passphrase: "new")
            try f.requireIntact(store)
            return true
        },
        FaultWriter("DeviceIdentity with a mirror file", helper: true, { ["identity", "--store", $0.plainStore.path, "--device-key", $0.key.path,
                                                                          "--app-id", "ABCDE12345.com.example.app", "--mirror", $0.mirror.path] }) { f in
            let store = try f.open(f.plainStore, passphrase: nil)
            try f.requireIntact(store)
            let items = try store.find(Query(service: "secstore.device-identity", account: "device-uuid", limit: .all, returning: .data))
            guard items.count <= 1 else { throw FaultFixture.Failure(description: "\(items.count) identifiers") }
            let stored = items.first.map { String(decoding: $0.data ?? Data(), as: UTF8.self) }
            if let mirrored = try? String(contentsOf: f.mirror, encoding: .utf8), let stored,
               !mirrored.hasPrefix(stored) {
                throw FaultFixture.Failure(description: "the mirror holds \(mirrored), the store \(stored)")
            }
            // Done = the identifier is in the store and the mirror holds it.
            return stored != nil && FileManager.default.fileExists(atPath: f.mirror.path)
        },
    ]
}

/// Copies every file of one directory into another (which exists).
func copyContents(of source: URL, to destination: URL) throws {
    for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
        try FileManager.default.copyItem(at: source.appending(path: name), to: destination.appending(path: name))
    }
}
