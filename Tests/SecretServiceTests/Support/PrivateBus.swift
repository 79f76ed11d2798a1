import Foundation
import Glibc
import SecStoreTestSupport

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
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socketPath)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: configuration, atomically: true, encoding: .utf8)
        daemon.executableURL = try Programs.require("dbus-daemon")
        daemon.arguments = ["--config-file=\(configuration.path)", "--nofork"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        // The socket appears once the daemon listens; the deadline only turns a daemon that
        // never starts into a failure instead of a hang.
        try Programs.waitFor("dbus-daemon to listen") { FileManager.default.fileExists(atPath: self.socketPath) || !self.daemon.isRunning }
        guard daemon.isRunning else { throw ProgramError("dbus-daemon exited with status \(daemon.terminationStatus)") }
    }

    deinit {
        // SIGKILL: the test runner's threads block SIGTERM and Foundation's Process passes
        // that mask on, so a child would never see a terminate().
        if daemon.isRunning {
            kill(daemon.processIdentifier, SIGKILL)
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
