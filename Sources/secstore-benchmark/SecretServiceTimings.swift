import Foundation
import SecStoreTestSupport
import Glibc
import SecStore
internal import SecretService

/// The Secret Service provider (issue 17), once per run: a private `dbus-daemon`, the built
/// `secstore-secret-service` beside this benchmark on a store of ``items`` Secret Service items
/// (filled through the SecStore API in the layout the provider uses, docs/secret-service.md
/// "How an item is stored"), then
/// - ``lookups`` lookups from this process over the bus, each `SearchItems` with one attribute
///   pair + `GetSecrets` in a `plain` session (``SecretServiceClient``), each timed alone;
/// - `secret-tool lookup` as a whole process, ``secretToolRuns`` times.
///
/// Skipped, with the reason in the result, when `dbus-daemon`, `secret-tool` or the provider
/// binary is missing.
struct SecretServiceTimings {
    let directory: URL

    static let items = 1_000
    static let lookups = 2_000
    static let secretToolRuns = 20
    /// The one attribute every item carries, with a value of its own.
    static let attribute = "bench-id"
    static let lookupSeed: UInt64 = 0x5EC5_7012_E000_0400

    static func value(_ index: Int) -> String { "item-\(index)" }
    /// Item `index`'s secret as text (`secret-tool` prints it as is).
    static func secret(_ index: Int) -> String { Workload.secret(index).map { String(format: "%02x", $0) }.joined() }

    func run() throws -> SecretServiceResult {
        var result = SecretServiceResult(items: Self.items, lookups: Self.lookups, secretToolRuns: Self.secretToolRuns)
        let provider = URL(filePath: Subprocess.currentExecutable).deletingLastPathComponent()
            .appending(path: "secstore-secret-service").path
        let daemon = ProgramRun.which("dbus-daemon")?.path, secretTool = ProgramRun.which("secret-tool")?.path
        let hasProvider = FileManager.default.isExecutableFile(atPath: provider)
        guard let daemon, let secretTool, hasProvider else {
            var missing: [String] = []
            if daemon == nil { missing.append("dbus-daemon not on PATH (scripts/bootstrap.sh)") }
            if secretTool == nil { missing.append("secret-tool not on PATH (libsecret-tools, scripts/bootstrap.sh)") }
            if !hasProvider {
                missing.append("secstore-secret-service not beside secstore-benchmark (scripts/build-release.sh secstore-secret-service)")
            }
            result.note = "skipped: " + missing.joined(separator: "; ")
            return result
        }
        let folder = directory.appending(path: "secret-service", directoryHint: .isDirectory)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let storeURL = folder.appending(path: "store.secstore"), keyURL = folder.appending(path: "device.key")

        progress("[secret service] filling a store of \(count(Self.items)) Secret Service items…")
        try fill(storeURL: storeURL, deviceKeyURL: keyURL)

        // The daemon ends when `bus` is released (Child's deinit kills it); the provider exits
        // with its bus and is killed below anyway.
        let bus = try startBus(daemon, folder: folder)
        defer { withExtendedLifetime(bus.daemon) {} }
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DBUS_") && !$0.key.hasPrefix("SECSTORE_") }
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["SECSTORE_KEYRING"] = "off"   // nothing left in the kernel keyring
        let environ = environment.map { "\($0.key)=\($0.value)" }
        let log = folder.appending(path: "provider.err")
        let pid = try Subprocess.launch(provider, ["--store", storeURL.path, "--device-key", keyURL.path],
                                        outputPath: folder.appending(path: "provider.out").path, errorPath: log.path,
                                        environment: environ)
        defer { Subprocess.stop(pid) }
        try Self.waitFor("the provider to own org.freedesktop.secrets") {
            String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self).contains("serving org.freedesktop.secrets")
        }

        progress("[secret service] checking every item, then \(count(Self.lookups)) timed lookups over the bus…")
        let client = try SecretServiceClient(address: bus.address)
        for index in 0..<Self.items { try check(client.lookup([Self.attribute: Self.value(index)]), index) }
        let order = Workload.readOrder(count: Self.lookups, size: Self.items, seed: Self.lookupSeed)
        let queries = order.map { [Self.attribute: Self.value($0)] }
        var times: [Double] = []
        times.reserveCapacity(order.count)
        var secrets: [[UInt8]?] = []
        secrets.reserveCapacity(order.count)
        for query in queries {
            let start = monotonicNanoseconds()
            let secret = try client.lookup(query)
            times.append(Double(monotonicNanoseconds() - start))
            secrets.append(secret)
        }
        for (position, index) in order.enumerated() { try check(secrets[position], index) }
        result.lookupMedianNanoseconds = median(times)
        result.lookupMeanNanoseconds = times.reduce(0, +) / Double(times.count)

        progress("[secret service] \(Self.secretToolRuns) secret-tool lookup processes…")
        result.secretTool = try timeSecretTool(secretTool, folder: folder, environment: environ)
        return result
    }

    /// Every item as the provider's `CreateItem` stores it: a generic password of service
    /// `org.freedesktop.secrets`, a random 32-hex account, in access group `default` (the
    /// default collection), its attributes in `Attributes.custom`.
    private func fill(storeURL: URL, deviceKeyURL: URL) throws {
        let store = try SecretStore(at: storeURL, options: SecretStore.Options(access: .owner, deviceKeyURL: deviceKeyURL))
        var generator = SystemRandomNumberGenerator()
        try store.write { transaction in
            for index in 0..<Self.items {
                let id = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
                var item = Item.genericPassword(service: "org.freedesktop.secrets", account: id,
                                                data: Data(Self.secret(index).utf8), accessGroup: "default",
                                                label: "benchmark item \(index)")
                item.attributes.itemDescription = "text/plain"
                item.attributes.custom = [Self.attribute: Self.value(index)]
                try transaction.add(item)
            }
        }
    }

    /// A private bus like the tests' (Tests/SecretServiceTests/Support/PrivateBus.swift): a
    /// socket in the work directory and no service directories, so that nothing (GNOME
    /// Keyring's activation file) can be started in the provider's place.
    private func startBus(_ daemon: String, folder: URL) throws -> (daemon: Subprocess.Child, address: String) {
        let configuration = folder.appending(path: "bus.conf")
        try PrivateBusConfiguration.text(listeningAt: folder.appending(path: "bus").path)
            .write(to: configuration, atomically: true, encoding: .utf8)
        let child = try Subprocess.start(daemon, ["--config-file=\(configuration.path)", "--nofork", "--print-address"])
        guard let address = try child.readLine(), !address.isEmpty else {
            throw BenchmarkError("dbus-daemon printed no address")
        }
        return (child, address)
    }

    /// `secret-tool lookup bench-id item-N` of different items (one untimed first run), each
    /// output checked against the item's secret.
    private func timeSecretTool(_ tool: String, folder: URL, environment: [String]) throws -> ProcessTiming {
        let order = Workload.readOrder(count: Self.secretToolRuns + 1, size: Self.items, seed: Self.lookupSeed + 1)
        let output = folder.appending(path: "secret-tool.out"), errors = folder.appending(path: "secret-tool.err")
        var timed: [Subprocess.Run] = []
        for (run, index) in order.enumerated() {
            let timing = try Subprocess.run(tool, ["lookup", Self.attribute, Self.value(index)], outputPath: output.path,
                                            errorPath: errors.path, environment: environment)
            let printed = String(decoding: try Data(contentsOf: output), as: UTF8.self)
            guard timing.status == 0, printed.trimmingCharacters(in: .newlines) == Self.secret(index) else {
                throw BenchmarkError("secret-tool lookup of item \(index) exited \(timing.status) without its secret")
            }
            if run > 0 { timed.append(timing) }
        }
        return ProcessTiming(timed)
    }

    private func check(_ secret: [UInt8]?, _ index: Int) throws {
        guard let secret, secret == Array(Self.secret(index).utf8) else {
            throw BenchmarkError("Secret Service lookup of item \(index) returned \(secret == nil ? "nothing" : "another secret")")
        }
    }

    /// Polls every 10 ms; the 60-second deadline only turns a provider that never starts into
    /// an error instead of a hang.
    private static func waitFor(_ what: String, _ condition: () -> Bool) throws {
        let deadline = monotonicNanoseconds() + 60_000_000_000
        while !condition() {
            guard monotonicNanoseconds() < deadline else { throw BenchmarkError("gave up waiting for \(what)") }
            usleep(10_000)
        }
    }
}
