import DeviceIdentity
import Foundation
import SecStoreTestSupport
import Testing
@testable import SecStore

/// The power-loss campaign (issue 15, item 1). `secstore-test-helper power-loss` runs seeded
/// operations on a store under the crash-simulating VFS (Tests/CrashVFS), acknowledging each
/// one after it returned; the VFS cuts the power at a random SQLite write or sync — unsynced
/// writes kept, dropped or torn, new files whose directory was never synced gone — and ends
/// the process. This process then reopens the store with the ordinary VFS and checks:
///
/// - every acknowledged operation is there, and the one in flight is entirely there or
///   entirely absent (items, an import of 12 items, a passphrase change, an identity reset, a
///   store created by `SecretStore.create`);
/// - exactly one passphrase opens the store: the acknowledged one or the one in flight;
/// - `verify()` finds it intact: `PRAGMA integrity_check`, every row authenticates, the items
///   match their digest, no key row damaged;
/// - SecStore's own files, which the helper writes through the `FileSystem` seam into the same
///   simulation (their unsynced writes cut, their unsynced directory entries undone): created
///   stores and their new device keys, DeviceIdentity's mirror, the exported backup
///   (`PowerLossOwnFiles.swift`). One cut in three is aimed at an own-file call.
///
/// The next trial goes on from the state the crash left. The suite runs 80 trials (about 60 cuts);
/// `scripts/power-loss.sh N` runs N (`SECSTORE_POWERLOSS_TRIALS`, `SECSTORE_POWERLOSS_SEED`).
@Suite struct PowerLossTests {
    static let environment = ProcessInfo.processInfo.environment
    static var trials: Int { environment["SECSTORE_POWERLOSS_TRIALS"].flatMap(Int.init) ?? 80 }
    static var baseSeed: UInt64 {
        environment["SECSTORE_POWERLOSS_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...1_000_000_000)
    }

    @Test func acknowledgedOperationsSurviveSimulatedPowerCuts() throws {
        let campaign = try PowerLossCampaign(seed: Self.baseSeed, environment: [:])
        let summary = try campaign.run(trials: Self.trials)
        print("power-loss: \(summary)")
        #expect(summary.failures.isEmpty, "\(summary.failures.joined(separator: "\n"))")
        #expect(summary.crashes > 0 && summary.acknowledged > 0, "the campaign never crashed or never acknowledged anything")
        // The simulation did something: writes were dropped or torn at the crashes.
        #expect(summary.tally["dropped", default: 0] + summary.tally["torn", default: 0] > 0)
    }

    /// The control: on a disk that acknowledges syncs it never did, the same campaign must
    /// find acknowledged operations lost (or the store damaged) within a few crashes, or the
    /// checks above prove nothing.
    @Test func aDiskThatIgnoresSyncsIsCaught() throws {
        let campaign = try PowerLossCampaign(seed: Self.baseSeed, environment: ["CRASHVFS_LYING_SYNC": "1"])
        let summary = try campaign.run(trials: 40, keepingFailures: false)
        print("power-loss control (fsync ignored): \(summary.failures.first?.prefix(300) ?? "nothing lost")")
        #expect(!summary.failures.isEmpty, "\(summary.trials) power cuts on a disk that ignores fsync lost nothing: the campaign cannot see a loss (\(summary))")
    }

    /// The control of the own-file checks: on a disk whose directory fsyncs do nothing, a
    /// created store's link, a new device key, a replaced mirror or backup is not durable when
    /// acknowledged, and cuts aimed at those calls must find one lost.
    ///
    /// A cut finds a loss only when it falls after an acknowledged own-file call of its run and
    /// the simulation undoes that call's entry: 120 seeds needed from 1 to 46 trials (median 4),
    /// and one run of the suite with a cap of 60 found nothing (its seed was not printed then;
    /// the message now carries it). The campaign runs up to 240 and stops at the first loss.
    @Test func aDiskThatIgnoresDirectorySyncsIsCaught() throws {
        let campaign = try PowerLossCampaign(seed: Self.baseSeed, environment: ["CRASHVFS_IGNORE_DIRECTORY_SYNC": "1"],
                                             aimAtFilesEvery: 1)
        let summary = try campaign.run(trials: 240, keepingFailures: false)
        print("power-loss control (directory fsync ignored): \(summary.failures.first?.prefix(300) ?? "nothing lost")")
        #expect(!summary.failures.isEmpty, "\(summary.trials) power cuts on a disk that ignores directory fsyncs lost nothing: the own-file checks cannot see a loss (\(summary))")
    }
}

/// What the store must hold: the acknowledged operations, applied in order.
struct PowerLossModel: Equatable {
    var items: [String: String] = [:]        // "<service>/<account>" → secret
    var passphrase: String?
    var identity: String?
    var identityUnknown = false              // an identity change in flight: any one UUID
    var createdStores: [String: CreatedStore] = [:] // path → how to open it
    var mirror: String?                      // the identity's mirror file holds this UUID
    var export: Int?                         // the backup at the export path holds this many items
    var exportUnknown = false                // an export in flight: any whole backup

    struct CreatedStore: Equatable {
        var passphrase: String
        var deviceKey: String
    }

    static let importedItems = (0..<12).map { ("i\($0)", "imported-\($0)") }

    /// Applies one `try` line's steps (after `try <n>`); `uuid` is the ack's, when known (an
    /// identity's UUID, an export's item count).
    mutating func apply(_ steps: [Substring], uuid: String?) {
        for step in steps {
            if step.hasPrefix("set:"), let equals = step.firstIndex(of: "=") {
                items["pl/" + step[step.index(step.startIndex, offsetBy: 4)..<equals]] = String(step[step.index(after: equals)...])
            } else if step.hasPrefix("delete:") {
                items["pl/" + step.dropFirst(7)] = nil
            } else if step == "import" {
                for (account, value) in Self.importedItems { items["imp/" + account] = value }
            } else if step == "drop-imports" {
                items = items.filter { !$0.key.hasPrefix("imp/") }
            } else if step.hasPrefix("passphrase:") {
                let value = String(step.dropFirst(11))
                passphrase = value == "-" ? nil : value
            } else if step == "identity" {
                if let uuid {
                    identity = uuid
                    mirror = uuid
                } else {
                    identityUnknown = true
                }
            } else if step.hasPrefix("export:") {
                if let uuid { export = Int(uuid) } else { exportUnknown = true }
            } else if step.hasPrefix("create:") {
                let fields = step.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
                if fields.count == 4 { createdStores[fields[1]] = CreatedStore(passphrase: fields[2], deviceKey: fields[3]) }
            }
        }
    }
}

/// One campaign: a store, a backup to import, and the loop of trials.
final class PowerLossCampaign {
    let directory = TemporaryDirectory("secstore-powerloss")
    let seed: UInt64
    var storeURL: URL { directory.storeURL }
    var deviceKeyURL: URL { directory.deviceKeyURL }
    var backupURL: URL { directory.url.appending(path: "import.ssb") }
    var createdDirectory: URL { directory.url.appending(path: "created") }
    let backupPassphrase = "backup-pass"
    let helper = HelperProcess(product: "secstore-test-helper")

    var options: SecretStore.Options {
        .init(access: .owner, deviceKeyURL: deviceKeyURL, createIfMissing: false, firstUnlockCache: .processMemory)
    }

    struct Summary: CustomStringConvertible {
        var trials = 0, crashes = 0, cleanExits = 0, acknowledged = 0, inFlightApplied = 0, inFlightAbsent = 0, aimedAtFiles = 0
        var eventsPerRun = 0, ownFileEventsPerRun = 0
        var tally: [String: Int] = [:]
        var failures: [String] = []
        var seconds = 0.0
        var seed: UInt64 = 0
        var description: String {
            let simulated = tally.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            return "\(trials) trials (seed \(seed)): \(crashes) simulated power cuts (\(aimedAtFiles) aimed at own-file calls), "
                + "\(cleanExits) runs ended before their cut; "
                + "\(acknowledged) acknowledged operations, all present; in flight at the cut: \(inFlightApplied) applied, "
                + "\(inFlightAbsent) absent; events in a run \(eventsPerRun) (own-file calls \(ownFileEventsPerRun)); "
                + "unsynced writes at the cuts: \(simulated); \(failures.count) failures; "
                + String(format: "%.1f s", seconds)
        }
    }

    /// Added to the helper's environment (`CRASHVFS_LYING_SYNC` for the control).
    let extraEnvironment: [String: String]
    /// One cut in this many is aimed at an own-file call.
    let aimAtFilesEvery: Int

    init(seed: UInt64, environment: [String: String], aimAtFilesEvery: Int = 3) throws {
        self.seed = seed
        extraEnvironment = environment
        self.aimAtFilesEvery = aimAtFilesEvery
        try FileManager.default.createDirectory(at: createdDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: exportURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try SecretStore.create(at: storeURL, options: options)
        let source = try SecretStore(at: directory.url.appending(path: "source.secstore"),
                                     options: .init(access: .owner, deviceKeyURL: deviceKeyURL))
        try source.write { transaction in
            for (account, value) in PowerLossModel.importedItems {
                try transaction.add(.genericPassword(service: "imp", account: account, data: Data(value.utf8), accessGroup: "pl.group"))
            }
        }
        _ = try source.exportBackup(to: backupURL, passphrase: backupPassphrase, limits: .minimumForTesting)
    }

    func run(trials: Int, keepingFailures: Bool = true) throws -> Summary {
        var summary = Summary(seed: seed)
        let start = Date()
        var model = PowerLossModel()
        var random = SplitMix(seed: seed)
        var estimate = 0   // events of a whole run (SQLite's and own-file calls), from runs that ended cleanly
        var fileEstimate = 0   // own-file calls of a whole run
        let report = directory.url.appending(path: "crash-report")
        for trial in 0..<trials {
            let trialSeed = seed &+ UInt64(trial)
            // One run in ten measures how many writes and syncs a run makes (and checks a
            // store reopened after a clean exit); the others cut the power anywhere in a run.
            var crashAt = estimate == 0 || trial % 10 == 9 ? 0 : Int(random.next() % UInt64(estimate + estimate / 4)) + 1
            // Every `aimAtFilesEvery`-th cut falls on one of SecStore's own-file calls (a
            // write, fsync, create, rename, link, unlink or mkdir), which are few among
            // SQLite's writes: the same crash point, aimed.
            var crashAtFile = 0
            if crashAt > 0 && fileEstimate > 0 && trial % aimAtFilesEvery == aimAtFilesEvery - 1 {
                crashAtFile = Int(random.next() % UInt64(fileEstimate + fileEstimate / 4)) + 1
                crashAt = 0
                summary.aimedAtFiles += 1
            }
            var arguments = ["power-loss", "--store", storeURL.path, "--device-key", deviceKeyURL.path,
                             "--backup", backupURL.path, "--backup-passphrase", backupPassphrase,
                             "--created-dir", createdDirectory.path, "--mirror", mirrorURL.path, "--export-to", exportURL.path,
                             "--seed", String(trialSeed), "--operations", "8"]
            if let passphrase = model.passphrase { arguments += ["--passphrase", passphrase] }
            let running = try helper.start(arguments, environment: [
                "CRASHVFS": "1", "CRASHVFS_SEED": String(trialSeed), "CRASHVFS_CRASH_AT": String(crashAt),
                "CRASHVFS_REPORT": report.path, "SECSTORE_KEYRING": "off", "CRASHVFS_CRASH_AT_FILE_EVENT": String(crashAtFile),
            ].merging(extraEnvironment) { _, new in new })
            let pid = running.process.processIdentifier
            let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
            let outcome = try running.finish()
            watchdog.cancel()
            summary.trials += 1
            let context = "trial \(trial) (seed \(trialSeed), crash at event \(crashAt), own-file event \(crashAtFile), status \(outcome.status))"
            switch outcome.status {
            case 86: summary.crashes += 1
            case 0: summary.cleanExits += 1
            default:
                summary.failures.append("\(context): the helper failed: \(outcome.output.suffix(600))")
                return finish(summary, start, keeping: keepingFailures ? context : nil)
            }
            // What the acknowledged operations made, and the same plus the one in flight.
            var acknowledged = model
            acknowledged.identityUnknown = false
            acknowledged.exportUnknown = false
            acknowledged.createdStores = [:]   // each trial checks the stores it created
            var pending: [Substring]?
            for line in outcome.lines {
                let fields = line.split(separator: " ")
                if fields.first == "try" {
                    pending = Array(fields.dropFirst(2))
                } else if fields.first == "ack", let steps = pending {
                    acknowledged.apply(steps, uuid: fields.count > 2 ? String(fields[2]) : nil)
                    summary.acknowledged += 1
                    pending = nil
                } else if fields.first == "events", fields.count == 3, let count = Int(fields[1]), let files = Int(fields[2]),
                          outcome.status == 0 {
                    estimate = estimate == 0 ? count : (estimate * 3 + count) / 4
                    fileEstimate = fileEstimate == 0 ? files : (fileEstimate * 3 + files) / 4
                    summary.eventsPerRun = estimate
                    summary.ownFileEventsPerRun = fileEstimate
                }
            }
            var withInFlight = acknowledged
            if let pending { withInFlight.apply(pending, uuid: nil) }
            do {
                let observed = try observe(acknowledged: acknowledged, withInFlight: withInFlight)
                if let pending, !pending.isEmpty {
                    let applied = pending[0].hasPrefix("create:")
                        ? withInFlight.createdStores.keys.contains { acknowledged.createdStores[$0] == nil && FileManager.default.fileExists(atPath: $0) }
                        : observed.matchesInFlightOnly(acknowledged, withInFlight)
                    if applied { summary.inFlightApplied += 1 } else { summary.inFlightAbsent += 1 }
                }
                model = observed
                // Checked: the created stores and whatever a cut create left go.
                try? FileManager.default.removeItem(at: createdDirectory)
                try FileManager.default.createDirectory(at: createdDirectory, withIntermediateDirectories: true)
            } catch {
                summary.failures.append("\(context): \(error)\noutput:\n\(outcome.output.suffix(1500))")
                return finish(summary, start, keeping: keepingFailures ? context : nil)
            }
        }
        if let text = try? String(contentsOf: report, encoding: .utf8) {
            for line in text.split(separator: "\n") {
                for field in line.split(separator: " ").dropFirst(2) {
                    let parts = field.split(separator: "=")
                    if parts.count == 2, let value = Int(parts[1]), parts[0] != "event" { summary.tally[String(parts[0]), default: 0] += value }
                }
            }
        }
        return finish(summary, start, keeping: nil)
    }

    /// Keeps the store of a failed trial for inspection.
    private func finish(_ summary: Summary, _ start: Date, keeping failure: String?) -> Summary {
        var summary = summary
        summary.seconds = Date().timeIntervalSince(start)
        if failure != nil {
            let kept = URL(filePath: NSTemporaryDirectory()).appending(path: "secstore-powerloss-failure-\(seed)")
            try? FileManager.default.removeItem(at: kept)
            try? FileManager.default.copyItem(at: directory.url, to: kept)
            summary.failures.append("the store is kept in \(kept.path)")
        }
        return summary
    }

    struct Mismatch: Error, CustomStringConvertible { let description: String }

    /// Opens the store with the ordinary VFS and returns what it holds, after checking it is
    /// the acknowledged state or that plus the operation in flight, and intact.
    func observe(acknowledged: PowerLossModel, withInFlight: PowerLossModel) throws -> PowerLossModel {
        var observed = PowerLossModel()
        let store = try SecretStore(at: storeURL, options: options)
        if try store.lockState != .noPassphrase {
            let candidates = Set([acknowledged.passphrase, withInFlight.passphrase].compactMap { $0 })
            let opening = candidates.filter { (try? store.unlock(passphrase: $0)) != nil }
            guard opening.count == 1 else {
                throw Mismatch(description: "passphrases that open the store: \(opening.sorted()), expected one of \(candidates.sorted())")
            }
            observed.passphrase = opening.first
            try store.unlock(passphrase: observed.passphrase!)
        }
        for service in ["pl", "imp"] {
            for item in try store.find(Query(service: service, limit: .all, returning: [.attributes, .data])) {
                observed.items["\(service)/\(item.attributes.account ?? "")"] = String(decoding: item.data ?? Data(), as: UTF8.self)
            }
        }
        let identities = try store.find(Query(service: DeviceIdentity.service, account: DeviceIdentity.account,
                                              accessGroup: "pl.vendor", limit: .all, returning: .data))
        guard identities.count <= 1 else { throw Mismatch(description: "\(identities.count) identity items") }
        observed.identity = identities.first.map { String(decoding: $0.data ?? Data(), as: UTF8.self) }

        let report = try store.verify()
        guard report.isIntact, report.itemsMatchDigest, report.lockedItems.isEmpty else {
            throw Mismatch(description: "verify: \(report.databaseProblems) damaged \(report.damagedItems.map(\.problem)) locked \(report.lockedItems.count)")
        }

        func same(_ expected: PowerLossModel, identityFree: Bool) -> Bool {
            observed.items == expected.items && observed.passphrase == expected.passphrase
                && (identityFree ? (observed.identity != nil || expected.identity == nil) : observed.identity == expected.identity)
        }
        guard same(acknowledged, identityFree: false) || same(withInFlight, identityFree: withInFlight.identityUnknown) else {
            let missing = acknowledged.items.filter { observed.items[$0.key] != $0.value }.keys.sorted()
            let extra = observed.items.filter { acknowledged.items[$0.key] != $0.value && withInFlight.items[$0.key] != $0.value }.keys.sorted()
            throw Mismatch(description: """
                the store is neither the acknowledged state nor that plus the operation in flight: \
                acknowledged items missing or different \(missing), unexpected \(extra); passphrase \(observed.passphrase ?? "none") \
                (acknowledged \(acknowledged.passphrase ?? "none")); identity \(observed.identity ?? "none") (acknowledged \(acknowledged.identity ?? "none"))
                """)
        }
        // SecStore's own files: created stores and their device keys, the mirror, the backup.
        try observeOwnFiles(&observed, acknowledged: acknowledged, withInFlight: withInFlight)
        return observed
    }
}

extension PowerLossModel {
    /// Whether `self` (observed) is the state with the operation in flight rather than without.
    func matchesInFlightOnly(_ acknowledged: PowerLossModel, _ withInFlight: PowerLossModel) -> Bool {
        (items != acknowledged.items || passphrase != acknowledged.passphrase || identity != acknowledged.identity)
            && items == withInFlight.items && passphrase == withInFlight.passphrase
    }
}

/// SplitMix64, for crash points that replay from the campaign's seed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
