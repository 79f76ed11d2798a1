import Foundation
import Testing

/// The signals clients (Seahorse, libsecret's and SecretStorage's property caches) watch, seen
/// by a real `dbus-monitor` on the private bus.
@Suite("Signals")
struct SignalTests {
    /// `dbus-monitor` on `bus` with `rule`, writing to a file the test reads.
    final class Monitor: @unchecked Sendable {
        let output: URL
        let process = Process()

        init(bus: PrivateBus, rule: String, in directory: URL) throws {
            output = directory.appending(path: "monitor-\(UUID().uuidString).out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            process.executableURL = try Programs.require("dbus-monitor")
            process.arguments = ["--address", bus.address, rule]
            process.standardOutput = try FileHandle(forWritingTo: output)
            process.standardError = FileHandle.nullDevice
            try process.run()
            // The monitor prints its own NameAcquired signal once it is connected.
            try Programs.waitFor("dbus-monitor to connect") { !self.seen.isEmpty }
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        var seen: String { String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self) }

        func waitFor(_ text: String) throws {
            try Programs.waitFor(text) { seen.contains(text) }
        }
    }

    @Test("ItemCreated, ItemChanged, ItemDeleted and PropertiesChanged for the default collection")
    func itemSignals() throws {
        let provider = try Provider(bus: try PrivateBus())
        let monitor = try Monitor(bus: provider.bus, rule: "type='signal',sender='org.freedesktop.secrets'", in: provider.directory.url)
        _ = try provider.secretTool(["store", "--label=a", "service", "s"], stdin: "one")
        _ = try provider.secretTool(["store", "--label=b", "service", "s"], stdin: "two")   // replaces: changed
        _ = try provider.secretTool(["clear", "service", "s"])
        for member in ["ItemCreated", "ItemChanged", "ItemDeleted", "PropertiesChanged"] {
            try monitor.waitFor("member=\(member)")
        }
        #expect(monitor.seen.contains("path=/org/freedesktop/secrets/collection/default; interface=org.freedesktop.Secret.Collection; member=ItemCreated"))
        #expect(!monitor.seen.contains("two"))
    }

    @Test("a granted collection's changes are not broadcast to clients that cannot see it")
    func grantedCollectionIsQuiet() throws {
        let setup = try PerBinaryAccessTests.Setup()
        let monitor = try Monitor(bus: setup.bus, rule: "type='signal',sender='org.freedesktop.secrets'", in: setup.binaries.url)
        let stored = try setup.run(setup.granted, ["store", "--label=Team", "--collection=\(PerBinaryAccessTests.teamCollection)", "app", "team"],
                                   stdin: "team-secret")
        #expect(stored.status == 0, "\(stored)")
        // A default-collection change afterwards: once its signal is seen, the team's would have been too.
        _ = try setup.run(setup.other, ["store", "--label=Mine", "app", "sentinel"], stdin: "s")
        try monitor.waitFor("member=ItemCreated")
        #expect(!monitor.seen.contains("TEAM"))
    }
}
