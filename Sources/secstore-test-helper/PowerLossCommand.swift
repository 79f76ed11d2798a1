import ArgumentParser
import CrashVFS
import DeviceIdentity
import Foundation
import SecStore
import SeededRandom

/// `power-loss --store P --device-key K --backup B --backup-passphrase BP --created-dir D
/// [--mirror F] [--export-to E] [--passphrase P] --seed S --operations M`: one trial of the
/// power-loss campaign (`PowerLossTests`, `scripts/power-loss.sh`). Run it with `CRASHVFS=1`
/// and `CRASHVFS_CRASH_AT=N` in the environment: the crash simulation (Tests/CrashVFS) then
/// cuts the power at the N-th event — an SQLite write or sync, or a write, fsync, create,
/// rename, link, unlink or mkdir of SecStore's own files through its `FileSystem` seam — and
/// ends the process with status 86.
///
/// It opens the store as its owner (unlocking with `--passphrase` when the store has one),
/// reads what is there, and runs M seeded operations chosen from that state. Before each it
/// prints `try <n> <steps>`, after it returned success `ack <n> [uuid]`; the steps are
///
///   `set:<account>=<value>` / `delete:<account>` (service `pl`; several in one transaction),
///   `import` (the backup's items, all in one transaction) / `drop-imports`,
///   `passphrase:<new>` (set or change) / `passphrase:-` (remove),
///   `identity` (DeviceIdentity's first identifier, then resets, in the vendor group `pl.vendor`,
///   mirrored to `--mirror` when given: the UUID is in the ack),
///   `export:<path>` (a backup of the store to `--export-to`, replacing the last one, with
///   `--backup-passphrase`: the count of exported items is in the ack; only when given),
///   `create:<path>:<passphrase>:<device key>` (a new store made by `SecretStore.create`
///   with a new device key in a new directory: the key, its directory and the store's link
///   are all SecStore's own files).
///
/// At the end it prints `events <count> <own-file count>` (the events the simulation counted:
/// SQLite writes and syncs and own-file calls; the second number the own-file calls alone) and
/// `done`.
struct PowerLossCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "power-loss",
        abstract: "Run seeded store operations, acknowledging each, under the crash-simulating VFS.")

    @Option(name: .customLong("store"), help: ArgumentHelp("The store file.", valueName: "path"))
    var storePath: String

    @Option(name: .customLong("device-key"), help: ArgumentHelp("The device key file.", valueName: "path"))
    var deviceKeyPath: String

    @Option(help: ArgumentHelp("A backup to import.", valueName: "path"))
    var backup: String

    @Option(name: .customLong("backup-passphrase"), parsing: .unconditional, help: "The backup's passphrase.")
    var backupPassphrase: String

    @Option(name: .customLong("created-dir"), help: ArgumentHelp("Where `create` steps make new stores.", valueName: "path"))
    var createdDirectory: String

    @Option(help: ArgumentHelp("DeviceIdentity's mirror file.", valueName: "path"))
    var mirror: String?

    @Option(name: .customLong("export-to"), help: ArgumentHelp("Where `export` steps write the backup.", valueName: "path"))
    var exportPath: String?

    @Option(parsing: .unconditional, help: "The store's passphrase, when it has one.")
    var passphrase: String?

    @Option(help: "The workload seed.")
    var seed: UInt64

    @Option(help: "How many operations to run.")
    var operations: Int = 8

    static let service = "pl"
    static let importService = "imp"
    static let identityGroup = "pl.vendor"

    func run() throws {
        var random = SplitMix64(seed: seed)
        let options = SecretStore.Options(access: .owner, deviceKeyURL: URL(filePath: deviceKeyPath),
                                          createIfMissing: false, firstUnlockCache: .processMemory)
        let store = try SecretStore(at: URL(filePath: storePath), options: options)
        var currentPassphrase = passphrase
        if let passphrase { try store.unlock(passphrase: passphrase) }
        var accounts = Set(try store.find(Query(service: Self.service, limit: .all)).compactMap(\.attributes.account))
        var imported = try !store.find(Query(service: Self.importService, limit: .all)).isEmpty
        let identity = DeviceIdentity(store: store, options: .init(scope: .vendor(accessGroup: Self.identityGroup),
                                                                   mirrorURL: mirror.map { URL(filePath: $0) }))
        var hasIdentity = try !store.find(Query(service: DeviceIdentity.service, account: DeviceIdentity.account,
                                                accessGroup: Self.identityGroup, limit: .all)).isEmpty
        print("ready")
        fflush(nil)

        for n in 0..<operations {
            let roll = random.next() % 100
            let stamp = "\(seed % 100_000)-\(n)"
            func announce(_ steps: String) {
                print("try \(n) \(steps)")
                fflush(nil)   // out before the work: a crash after it must not hide the attempt
            }
            var ackSuffix = ""
            switch roll {
            case 0..<44:
                // One transaction of 1–4 steps: adds, updates and deletes of accounts a0…a11.
                var steps: [String] = []
                var plan: [(String, String?)] = []
                var present = accounts
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    let account = "a\(random.next() % 12)"
                    if present.contains(account), random.next() % 3 == 0 {
                        plan.append((account, nil))
                        present.remove(account)
                        steps.append("delete:\(account)")
                    } else {
                        let value = "v\(stamp)-\(random.next() % 1000)" + String(repeating: "x", count: Int(random.next() % 300))
                        plan.append((account, value))
                        present.insert(account)
                        steps.append("set:\(account)=\(value)")
                    }
                }
                announce(steps.joined(separator: " "))
                try store.write { transaction in
                    var exists = accounts
                    for (account, value) in plan {
                        let query = Query(service: Self.service, account: account)
                        if let value {
                            if exists.contains(account) {
                                try transaction.update(matching: query, with: ItemChanges(data: Data(value.utf8)))
                            } else {
                                try transaction.add(.genericPassword(service: Self.service, account: account, data: Data(value.utf8),
                                                                             accessGroup: "pl.group"))
                                exists.insert(account)
                            }
                        } else {
                            _ = try transaction.delete(matching: query)
                            exists.remove(account)
                        }
                    }
                }
                accounts = present
            case 44..<54:
                if imported {
                    announce("drop-imports")
                    _ = try store.deleteAll(matching: Query(service: Self.importService))
                } else {
                    announce("import")
                    _ = try store.importBackup(from: URL(filePath: backup), passphrase: backupPassphrase, conflictPolicy: .replace)
                }
                imported.toggle()
            case 54..<66:
                let next = random.next() % 5 == 0 && currentPassphrase != nil ? nil : "p\(stamp)"
                announce("passphrase:\(next ?? "-")")
                switch (currentPassphrase, next) {
                case (nil, let new?): try store.setPassphrase(new, limits: .minimumForTesting)
                case (let old?, let new?): try store.changePassphrase(from: old, to: new, limits: .minimumForTesting)
                case (let old?, nil): try store.removePassphrase(old)
                case (nil, nil): break
                }
                currentPassphrase = next
            case 66..<78:
                // The first one creates it (get-or-create), later ones reset it.
                announce("identity")
                ackSuffix = " " + (hasIdentity ? try identity.reset() : try identity.identifier()).string
                hasIdentity = true
            case 78..<88 where exportPath != nil:
                let path = exportPath!
                announce("export:\(path)")
                let summary = try store.exportBackup(to: URL(filePath: path), passphrase: backupPassphrase,
                                                     limits: .minimumForTesting)
                ackSuffix = " \(summary.exported)"
            default:
                let created = URL(filePath: createdDirectory)
                let path = created.appending(path: "created-\(stamp).secstore").path
                let key = created.appending(path: "key-\(stamp)").appending(path: "device.key").path
                let newPassphrase = "c\(stamp)"
                announce("create:\(path):\(newPassphrase):\(key)")
                var createOptions = options
                createOptions.deviceKeyURL = URL(filePath: key)
                _ = try SecretStore.create(at: URL(filePath: path), options: createOptions, passphrase: newPassphrase,
                                           limits: .minimumForTesting)
            }
            print("ack \(n)\(ackSuffix)")
            fflush(nil)
        }
        print("events \(crashvfs_event_count()) \(crashvfs_file_event_count())")
        print("done")
    }
}
