import Foundation
import Glibc
import SecStore
import SecStoreTestSupport

/// The built `secstore-secret-service` serving a temporary store on a ``PrivateBus``; its
/// output and errors go to files the tests read. Stopped when released.
final class Provider: @unchecked Sendable {
    let bus: PrivateBus
    let directory = TemporaryDirectory("secret-service-store")
    private let process = Process()
    private let outputURL: URL
    private let errorURL: URL

    /// Starts the provider and waits until it owns the name (it says so on standard error).
    /// `prepare` runs first, with the directory the store will be in (to create a store with a
    /// passphrase, for example).
    /// `kernelKeyring` lets the provider use the kernel user keyring (a shared unlock by
    /// `secstore unlock --for`); off by default, so that a test leaves nothing there.
    /// `environment` adds variables to the provider's (such as `SECSTORE_SYNCHRONIZABLE`).
    /// `coreLimited` starts it with a soft core-file limit of 1000 blocks
    /// (``CrashState/launcher(for:_:)``), for the test that it takes the limit down itself.
    /// `machineID` runs it in a mount namespace of its own (`unshare -m`, as root) where that
    /// file is bound over `/etc/machine-id` (``machineIDNamespaceUnavailableBecause``).
    init(bus: PrivateBus, arguments: [String] = [], kernelKeyring: Bool = false, environment extra: [String: String] = [:],
         coreLimited: Bool = false, machineID: URL? = nil, prepare: (TemporaryDirectory) throws -> Void = { _ in }) throws {
        self.bus = bus
        try prepare(directory)
        outputURL = directory.url.appending(path: "provider.out")
        errorURL = directory.url.appending(path: "provider.err")
        guard FileManager.default.createFile(atPath: outputURL.path, contents: nil),
              FileManager.default.createFile(atPath: errorURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: directory.url.path])
        }
        let executable = Programs.productsDirectory.appending(path: "secstore-secret-service")
        let allArguments = ["--store", directory.storeURL.path, "--device-key", directory.deviceKeyURL.path] + arguments
        var launch = coreLimited ? CrashState.launcher(for: executable, allArguments) : (executable: executable, arguments: allArguments)
        if let machineID {
            launch = (try Programs.require("unshare"),
                      ["-m", "/bin/sh", "-c", #"mount --bind "$0" /etc/machine-id && exec "$@""#, machineID.path,
                       launch.executable.path] + launch.arguments)
        }
        process.executableURL = launch.executable
        process.arguments = launch.arguments
        var environment = bus.clientEnvironment
        if !kernelKeyring { environment["SECSTORE_KEYRING"] = "off" }   // nothing left in the kernel keyring
        environment.merge(extra) { _, given in given }
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.runWithCleanSignals()
        try Programs.waitFor("the provider to own org.freedesktop.secrets") {
            self.log.contains("serving org.freedesktop.secrets") || !self.process.isRunning
        }
        guard process.isRunning else {
            // Reaped, so that Foundation lets the Process go: corelibs Foundation keeps one that
            // exited unwaited for, with its file handles and arguments, which LeakSanitizer
            // reports (scripts/sanitizers/lsan.supp, 8).
            process.waitUntilExit()
            throw ProgramError("the provider exited: \(log)")
        }
    }

    /// Why a provider cannot be given another `/etc/machine-id` here, or nil when it can:
    /// a mount namespace needs root and `unshare`, and a container may refuse it.
    static let machineIDNamespaceUnavailableBecause: String? = {
        guard getuid() == 0 else { return "needs root (a mount namespace to bind a file over /etc/machine-id)" }
        guard let unshare = try? Programs.require("unshare") else { return "needs unshare (util-linux)" }
        guard let probe = try? Programs.run(unshare, ["-m", "/bin/sh", "-c", "mount --bind /etc/hostname /etc/hostname"],
                                            environment: ProcessInfo.processInfo.environment),
              probe.status == 0 else { return "unshare -m with a bind mount is refused here" }
        return nil
    }()

    deinit {
        // SIGKILL: the test runner's threads block SIGTERM and Foundation's Process passes
        // that mask on, so a child would never see a terminate().
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var isRunning: Bool { process.isRunning }

    /// The provider's process id.
    var processIdentifier: pid_t { process.processIdentifier }

    /// Waits until the provider exits by itself; its exit status.
    func waitForExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Everything the provider wrote, output and errors.
    var log: String {
        [outputURL, errorURL].map { String(decoding: (try? Data(contentsOf: $0)) ?? Data(), as: UTF8.self) }.joined()
    }

    /// The provider's store opened beside it through the SecStore library, as its owner (every
    /// access group), without the kernel keyring.
    func openStore() throws -> SecretStore {
        try SecretStore(at: directory.storeURL, options: .init(access: .owner, deviceKeyURL: directory.deviceKeyURL,
                                                               createIfMissing: false, firstUnlockCache: .processMemory))
    }

    /// Runs `secret-tool` against this provider.
    func secretTool(_ arguments: [String], stdin: String = "") throws -> Programs.Result {
        try Programs.run(try Programs.require("secret-tool"), arguments, stdin: Data(stdin.utf8), environment: bus.clientEnvironment)
    }
}
