import Foundation
import Glibc
import SecStoreTestSupport
@testable import SecretService

/// A private session bus for one test: `dbus-daemon` with a configuration that listens on a
/// socket in a temporary directory and activates no services (so no other provider can be
/// started behind the test's back). Stopped when released.
final class PrivateBus: @unchecked Sendable {
    let directory = TemporaryDirectory("secret-service-bus")
    private let daemon = Process()

    /// The address clients put in `DBUS_SESSION_BUS_ADDRESS`.
    var address: String { "unix:path=" + socketPath }
    private var socketPath: String { directory.url.appending(path: "bus").path }

    init() throws {
        let configuration = directory.url.appending(path: "bus.conf")
        try PrivateBusConfiguration.text(listeningAt: socketPath).write(to: configuration, atomically: true, encoding: .utf8)
        // Under `timeout -s KILL`: if the test runner dies without releasing the bus, the daemon
        // still ends within the hour, and the provider with it (it exits when its bus goes away).
        let pidFile = directory.url.appending(path: "daemon.pid")
        _ = FileManager.default.createFile(atPath: pidFile.path, contents: nil)
        daemon.executableURL = try Programs.require("timeout")
        daemon.arguments = ["-s", "KILL", "3600", try Programs.require("dbus-daemon").path,
                            "--config-file=\(configuration.path)", "--nofork", "--print-pid=1"]
        daemon.standardOutput = try FileHandle(forWritingTo: pidFile)
        daemon.standardError = FileHandle.nullDevice
        try daemon.runWithCleanSignals()
        // The socket appears once the daemon listens; the deadline only turns a daemon that
        // never starts into a failure instead of a hang.
        try Programs.waitFor("dbus-daemon to listen") { FileManager.default.fileExists(atPath: self.socketPath) || !self.daemon.isRunning }
        guard daemon.isRunning else { throw ProgramError("dbus-daemon exited with status \(daemon.terminationStatus)") }
        try Programs.waitFor("dbus-daemon's PID") { Self.pid(in: pidFile) != nil }
        daemonPID = Self.pid(in: pidFile) ?? 0
    }

    private var daemonPID: pid_t = 0

    private static func pid(in file: URL) -> pid_t? {
        let text = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
        guard text.hasSuffix("\n") else { return nil }
        return pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    deinit { stop() }

    /// Stops the daemon (every connection to it ends) and waits until it is gone.
    func stop() {
        // SIGKILL: the test runner's threads block SIGTERM and Foundation's Process passes
        // that mask on, so a child would never see a terminate(). Killing the daemon ends
        // `timeout` too.
        let pid = daemonPID
        daemonPID = -1   // never signalled twice: its PID may be another process's by then
        if pid > 0 { kill(pid, SIGKILL) }
        if daemon.isRunning {
            if pid == 0 { kill(daemon.processIdentifier, SIGKILL) }
            daemon.waitUntilExit()
        }
    }

    /// The environment of a client of this bus: the test's, with the bus address and no other
    /// bus or display variables.
    var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("DBUS_") && !$0.key.hasPrefix("SECSTORE_") && $0.key != "DISPLAY" && $0.key != "WAYLAND_DISPLAY"
        }
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }
}
